#ifndef CFILEWRITEBACK_H
#define CFILEWRITEBACK_H

#include <stdint.h>

/// Starts writing the dirty pages of `length` bytes of the file `descriptor` from `offset` to
/// the disk, without waiting for them: Linux's `sync_file_range` with
/// `SYNC_FILE_RANGE_WRITE`, which Swift's Glibc module does not declare (it is a GNU
/// extension). Elsewhere it flushes the file (`fsync`) and waits. Returns 0, or -1 with `errno`
/// set.
int changelog_start_writeback(int descriptor, int64_t offset, int64_t length);

/// Allocates the blocks of `length` bytes of the file `descriptor` from `offset`, without
/// changing its size: Linux's `fallocate` with `FALLOC_FL_KEEP_SIZE`, which Swift's Glibc
/// module does not declare. Unlike `posix_fallocate`, it never falls back to writing zeros
/// (which could overwrite bytes another process writes meanwhile): a file system that cannot
/// allocate fails with `EOPNOTSUPP`, as every other system does. Retried on `EINTR`. Returns
/// 0, or -1 with `errno` set (`ENOSPC` or `EDQUOT` when there is no space).
int changelog_allocate(int descriptor, int64_t offset, int64_t length);

/// Takes, without waiting, an exclusive lock on the first byte of the file `descriptor`
/// (`fcntl` with `F_SETLK`): the lock every LMDB process holds, shared, on its `lock.mdb` for
/// as long as it has the environment open. Taken, it proves that no other process has the
/// environment open, nor can open it until it is released. Returns 0, or -1 with `errno` set
/// (`EAGAIN` or `EACCES` while another process holds a lock). Closing any descriptor of the
/// file releases it, as it releases every `fcntl` lock this process holds on the file.
int changelog_lock_environment(int descriptor);

/// Releases the lock ``changelog_lock_environment`` took.
void changelog_unlock_environment(int descriptor);

#endif
