/* platform/baremetal/src/startup.c — the vector table and Reset_Handler of
 * every Cortex-M board port.
 *
 * Vector table layout: ARMv7-M Architecture Reference Manual (DDI 0403E),
 * B1.5.2-B1.5.3: word 0 the initial main stack pointer, word 1 the reset
 * vector, then the system exceptions 2..15 and the board's external
 * interrupts (HODYN_BAREMETAL_NUM_IRQS, set per board by CMake).
 *
 * Reset_Handler: enable the FPU (CPACR, DDI 0403E B3.2.20) before any
 * floating-point instruction can run, copy .data from flash, zero .bss, paint
 * the stack, hodyn_baremetal_init() (runtime.cpp: board init, static
 * constructors), main(), and exit with main's return value. */
#include <stdint.h>

#ifndef HODYN_BAREMETAL_NUM_IRQS
#error "HODYN_BAREMETAL_NUM_IRQS must be defined by the board (CMake)"
#endif

typedef void (*hodyn_vector)(void);

/* Linker script symbols (linker/sections.ld). */
extern uint32_t __stack_top;
extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss;

void hodyn_baremetal_init(void);
void hodyn_baremetal_exit(int code) __attribute__((noreturn));
int main(void);
void hodyn_baremetal_paint_unused_stack(void);
void hodyn_baremetal_unhandled_exception(void) __attribute__((noreturn));

void Reset_Handler(void) __attribute__((noreturn));

/* Every exception without a handler of its own reports itself and stops. */
void Default_Handler(void) { hodyn_baremetal_unhandled_exception(); }

#define HODYN_WEAK_HANDLER(name) void name(void) __attribute__((weak, alias("Default_Handler")))
HODYN_WEAK_HANDLER(NMI_Handler);
HODYN_WEAK_HANDLER(HardFault_Handler);
HODYN_WEAK_HANDLER(MemManage_Handler);
HODYN_WEAK_HANDLER(BusFault_Handler);
HODYN_WEAK_HANDLER(UsageFault_Handler);
HODYN_WEAK_HANDLER(SVC_Handler);
HODYN_WEAK_HANDLER(DebugMon_Handler);
HODYN_WEAK_HANDLER(PendSV_Handler);
HODYN_WEAK_HANDLER(SysTick_Handler);
/* Every external interrupt: the runtime polls its peripherals, so none is
 * enabled; a board that needs one gives it its own entry below. */
HODYN_WEAK_HANDLER(hodyn_irq_handler);

/* A board with interrupt-driven peripherals names its IRQs: CMake defines
 * HODYN_BAREMETAL_IRQ_VECTORS_HEADER, a header that declares one weak handler
 * per IRQ (HODYN_WEAK_HANDLER) and defines HODYN_BAREMETAL_IRQ_VECTORS, the
 * initializer of the external part of the table. */
#if defined(HODYN_BAREMETAL_IRQ_VECTORS_HEADER)
#include HODYN_BAREMETAL_IRQ_VECTORS_HEADER
#endif

typedef struct {
  uint32_t* initial_stack_pointer;
  hodyn_vector system[15];
  hodyn_vector external[HODYN_BAREMETAL_NUM_IRQS];
} hodyn_vector_table;

__attribute__((section(".isr_vector"), used)) const hodyn_vector_table hodyn_vectors = {
    &__stack_top,
    {
        Reset_Handler,      /* 1 reset */
        NMI_Handler,        /* 2 */
        HardFault_Handler,  /* 3 */
        MemManage_Handler,  /* 4 */
        BusFault_Handler,   /* 5 */
        UsageFault_Handler, /* 6 */
        0, 0, 0, 0,         /* 7..10 reserved */
        SVC_Handler,        /* 11 */
        DebugMon_Handler,   /* 12 */
        0,                  /* 13 reserved */
        PendSV_Handler,     /* 14 */
        SysTick_Handler,    /* 15 */
    },
#if defined(HODYN_BAREMETAL_IRQ_VECTORS)
    /* The board's own table (e.g. boards/stm32f405/irq_vectors.h): one named,
     * weak handler per interrupt of the part, in the reference manual's order. */
    HODYN_BAREMETAL_IRQ_VECTORS,
#else
    {[0 ... HODYN_BAREMETAL_NUM_IRQS - 1] = hodyn_irq_handler},
#endif
};

static void hodyn_enable_fpu(void) {
#if defined(__ARM_FP)
  volatile uint32_t* const cpacr = (volatile uint32_t*)0xE000ED88u;
  *cpacr |= 0xFu << 20; /* CP10, CP11: full access */
  __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
}

/* Kept apart from Reset_Handler so that nothing the compiler schedules here
 * can use an FPU register before hodyn_enable_fpu() has run. */
static void __attribute__((noinline, noreturn)) hodyn_reset_continue(void) {
  const uint32_t* src = &_sidata;
  for (uint32_t* dst = &_sdata; dst < &_edata;) *dst++ = *src++;
  for (uint32_t* dst = &_sbss; dst < &_ebss;) *dst++ = 0u;
  hodyn_baremetal_paint_unused_stack();
  hodyn_baremetal_init();
  hodyn_baremetal_exit(main());
}

void Reset_Handler(void) {
  hodyn_enable_fpu();
  hodyn_reset_continue();
}
