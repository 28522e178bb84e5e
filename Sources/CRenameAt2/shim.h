// renameat2(2) with RENAME_EXCHANGE, which Glibc's Swift module map does not export (and older
// C libraries do not declare): it swaps two paths in one step, so a folder is replaced
// atomically; and sync_file_range(2), which it does not export either. Called through
// syscall(2), which Swift cannot call itself (it is variadic).
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

/// Swaps the entries `first` and `second` (both must exist) in one step; 0, or -1 with errno
/// (ENOSYS: no such system call; EINVAL: the file system cannot exchange).
static inline int stasis_exchange_paths(const char *first, const char *second) {
#if defined(__linux__) && defined(SYS_renameat2)
  return (int)syscall(SYS_renameat2, -100 /* AT_FDCWD */, first, -100, second, 1 << 1 /* RENAME_EXCHANGE */);
#else
  (void)first;
  (void)second;
  errno = ENOSYS;
  return -1;
#endif
}

/// Starts writing the file's dirty pages to disk without waiting (sync_file_range(2) with
/// SYNC_FILE_RANGE_WRITE); 0, or -1 with errno. Only a hint: the file is durable after fsync(2).
/// Started for every file of a folder before the first fsync, the files' blocks are allocated
/// in one journal transaction, which the first fsync commits for all of them.
static inline int stasis_start_writeback(int descriptor) {
#if defined(__linux__) && defined(SYS_sync_file_range)
  return (int)syscall(SYS_sync_file_range, descriptor, (long long)0, (long long)0, 2 /* SYNC_FILE_RANGE_WRITE */);
#else
  (void)descriptor;
  errno = ENOSYS;
  return -1;
#endif
}
