#define _GNU_SOURCE
#include "CFileWriteback.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int changelog_start_writeback(int descriptor, int64_t offset, int64_t length) {
#if defined(__linux__)
    // The prototype converts the 64-bit offsets (off64_t is not declared everywhere: musl).
    return sync_file_range(descriptor, offset, length, SYNC_FILE_RANGE_WRITE);
#else
    (void)offset;
    (void)length;
    return fsync(descriptor);
#endif
}

int changelog_allocate(int descriptor, int64_t offset, int64_t length) {
#if defined(__linux__)
    // fcntl.h declares it and FALLOC_FL_KEEP_SIZE under _GNU_SOURCE (glibc and musl).
    int result;
    do {
        result = fallocate(descriptor, FALLOC_FL_KEEP_SIZE, offset, length);
    } while (result != 0 && errno == EINTR);
    return result;
#else
    (void)descriptor;
    (void)offset;
    (void)length;
    errno = EOPNOTSUPP;
    return -1;
#endif
}

static int changelog_set_lock(int descriptor, short type) {
    struct flock lock = {0};
    lock.l_type = type;
    lock.l_whence = SEEK_SET;
    lock.l_start = 0;
    lock.l_len = 1;
    int result;
    do {
        result = fcntl(descriptor, F_SETLK, &lock);
    } while (result != 0 && errno == EINTR);
    return result;
}

int changelog_lock_environment(int descriptor) { return changelog_set_lock(descriptor, F_WRLCK); }

void changelog_unlock_environment(int descriptor) { (void)changelog_set_lock(descriptor, F_UNLCK); }
