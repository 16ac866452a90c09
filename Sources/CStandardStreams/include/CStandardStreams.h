#ifndef CSTANDARDSTREAMS_H
#define CSTANDARDSTREAMS_H

/// Which of the standard streams (bit 0: input, bit 1: output, bit 2: error) were closed when
/// the process started: as a constructor of the executable found them, before `main` and before
/// the Swift runtime opens descriptors of its own (the shared libraries' initializers run
/// earlier, and keep none of the files they open).
///
/// A process started with one of them closed would hand that descriptor number to the next
/// file it opens, or to the next descriptor the Swift runtime creates, and what the tool prints
/// would go there: into an LMDB file of the log, or into the runtime's event descriptor. That
/// constructor therefore puts `/dev/null` on each closed one, opened
/// the other way round (standard input for writing, the other two for reading): the numbers
/// are taken, and reading or writing them still fails with `EBADF`, as on a closed descriptor.
unsigned replay_standard_streams_closed_at_start(void);

#endif
