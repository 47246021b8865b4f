/* platform/baremetal/src/newlib_stubs.c — the few C library hooks a hodyn
 * firmware may reach, implemented without stdio and without a heap:
 *   __assert_func  (assert() with NDEBUG off): newlib's prints with fiprintf,
 *                  which allocates a stdio buffer;
 *   abort, _exit   report and leave through the runtime's exit;
 *   __cxa_atexit   static destructors are never run on bare metal (the
 *                  program ends with exit(), not by unwinding main).
 * There is deliberately no _sbrk: anything that needs malloc fails to link
 * (see the ASSERTs in linker/sections.ld). */
#include <stddef.h>

void hodyn_baremetal_exit(int code) __attribute__((noreturn));
void hodyn_baremetal_report(const char* a, const char* b, const char* c, int line);

void __assert_func(const char* file, int line, const char* function, const char* expression) {
  hodyn_baremetal_report("assertion failed: ", expression, file, line);
  (void)function;
  hodyn_baremetal_exit(134);
}

void abort(void) {
  hodyn_baremetal_report("abort()", "", "", 0);
  hodyn_baremetal_exit(134);
}

void _exit(int code) { hodyn_baremetal_exit(code); }

int __cxa_atexit(void (*destructor)(void*), void* object, void* dso_handle) {
  (void)destructor;
  (void)object;
  (void)dso_handle;
  return 0;
}

void* __dso_handle = NULL;
