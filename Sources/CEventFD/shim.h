// eventfd(2), which Glibc's Swift module map does not export: cgroup v1 memory-pressure
// notifications are delivered through one.
#include <sys/eventfd.h>
