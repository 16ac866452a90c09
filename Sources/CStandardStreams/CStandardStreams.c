#include "CStandardStreams.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

/// The bits `replay_standard_streams_closed_at_start` returns, set once by the constructor.
static unsigned closed_at_start = 0;

/// Runs before `main` and before the Swift runtime opens a descriptor of its own.
__attribute__((constructor)) static void replay_occupy_closed_standard_streams(void) {
    for (int descriptor = STDIN_FILENO; descriptor <= STDERR_FILENO; descriptor++) {
        if (fcntl(descriptor, F_GETFD) != -1 || errno != EBADF) {
            continue;
        }
        // The lowest free number is `descriptor`: every lower one is open by now.
        int opened = open("/dev/null", (descriptor == STDIN_FILENO ? O_WRONLY : O_RDONLY) | O_NOCTTY);
        if (opened == -1) {
            continue;
        }
        if (opened != descriptor) {
            close(opened);
            continue;
        }
        closed_at_start |= 1u << descriptor;
    }
}

unsigned replay_standard_streams_closed_at_start(void) {
    return closed_at_start;
}
