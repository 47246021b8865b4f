/* boards/stm32h743/irq_vectors.h — the external part of the STM32H743's
 * vector table (150 interrupts, RM0433 rev 7, section 21.3 table 147), for
 * src/startup.c (HODYN_BAREMETAL_IRQ_VECTORS_HEADER, set by CMake). Only the
 * interrupt this port uses has a name: position 39, USART3 (weak, defined in
 * board.cpp); every other position is the runtime's default handler, which
 * reports the exception and stops. Name more as drivers need them. */
#ifndef HODYN_BOARDS_STM32H743_IRQ_VECTORS_H
#define HODYN_BOARDS_STM32H743_IRQ_VECTORS_H

HODYN_WEAK_HANDLER(USART3_IRQHandler); /* 39 */

#define HODYN_BAREMETAL_IRQ_VECTORS \
  { \
    hodyn_irq_handler, /* 0 */ \
    hodyn_irq_handler, /* 1 */ \
    hodyn_irq_handler, /* 2 */ \
    hodyn_irq_handler, /* 3 */ \
    hodyn_irq_handler, /* 4 */ \
    hodyn_irq_handler, /* 5 */ \
    hodyn_irq_handler, /* 6 */ \
    hodyn_irq_handler, /* 7 */ \
    hodyn_irq_handler, /* 8 */ \
    hodyn_irq_handler, /* 9 */ \
    hodyn_irq_handler, /* 10 */ \
    hodyn_irq_handler, /* 11 */ \
    hodyn_irq_handler, /* 12 */ \
    hodyn_irq_handler, /* 13 */ \
    hodyn_irq_handler, /* 14 */ \
    hodyn_irq_handler, /* 15 */ \
    hodyn_irq_handler, /* 16 */ \
    hodyn_irq_handler, /* 17 */ \
    hodyn_irq_handler, /* 18 */ \
    hodyn_irq_handler, /* 19 */ \
    hodyn_irq_handler, /* 20 */ \
    hodyn_irq_handler, /* 21 */ \
    hodyn_irq_handler, /* 22 */ \
    hodyn_irq_handler, /* 23 */ \
    hodyn_irq_handler, /* 24 */ \
    hodyn_irq_handler, /* 25 */ \
    hodyn_irq_handler, /* 26 */ \
    hodyn_irq_handler, /* 27 */ \
    hodyn_irq_handler, /* 28 */ \
    hodyn_irq_handler, /* 29 */ \
    hodyn_irq_handler, /* 30 */ \
    hodyn_irq_handler, /* 31 */ \
    hodyn_irq_handler, /* 32 */ \
    hodyn_irq_handler, /* 33 */ \
    hodyn_irq_handler, /* 34 */ \
    hodyn_irq_handler, /* 35 */ \
    hodyn_irq_handler, /* 36 */ \
    hodyn_irq_handler, /* 37 */ \
    hodyn_irq_handler, /* 38 */ \
    USART3_IRQHandler, /* 39 */ \
    hodyn_irq_handler, /* 40 */ \
    hodyn_irq_handler, /* 41 */ \
    hodyn_irq_handler, /* 42 */ \
    hodyn_irq_handler, /* 43 */ \
    hodyn_irq_handler, /* 44 */ \
    hodyn_irq_handler, /* 45 */ \
    hodyn_irq_handler, /* 46 */ \
    hodyn_irq_handler, /* 47 */ \
    hodyn_irq_handler, /* 48 */ \
    hodyn_irq_handler, /* 49 */ \
    hodyn_irq_handler, /* 50 */ \
    hodyn_irq_handler, /* 51 */ \
    hodyn_irq_handler, /* 52 */ \
    hodyn_irq_handler, /* 53 */ \
    hodyn_irq_handler, /* 54 */ \
    hodyn_irq_handler, /* 55 */ \
    hodyn_irq_handler, /* 56 */ \
    hodyn_irq_handler, /* 57 */ \
    hodyn_irq_handler, /* 58 */ \
    hodyn_irq_handler, /* 59 */ \
    hodyn_irq_handler, /* 60 */ \
    hodyn_irq_handler, /* 61 */ \
    hodyn_irq_handler, /* 62 */ \
    hodyn_irq_handler, /* 63 */ \
    hodyn_irq_handler, /* 64 */ \
    hodyn_irq_handler, /* 65 */ \
    hodyn_irq_handler, /* 66 */ \
    hodyn_irq_handler, /* 67 */ \
    hodyn_irq_handler, /* 68 */ \
    hodyn_irq_handler, /* 69 */ \
    hodyn_irq_handler, /* 70 */ \
    hodyn_irq_handler, /* 71 */ \
    hodyn_irq_handler, /* 72 */ \
    hodyn_irq_handler, /* 73 */ \
    hodyn_irq_handler, /* 74 */ \
    hodyn_irq_handler, /* 75 */ \
    hodyn_irq_handler, /* 76 */ \
    hodyn_irq_handler, /* 77 */ \
    hodyn_irq_handler, /* 78 */ \
    hodyn_irq_handler, /* 79 */ \
    hodyn_irq_handler, /* 80 */ \
    hodyn_irq_handler, /* 81 */ \
    hodyn_irq_handler, /* 82 */ \
    hodyn_irq_handler, /* 83 */ \
    hodyn_irq_handler, /* 84 */ \
    hodyn_irq_handler, /* 85 */ \
    hodyn_irq_handler, /* 86 */ \
    hodyn_irq_handler, /* 87 */ \
    hodyn_irq_handler, /* 88 */ \
    hodyn_irq_handler, /* 89 */ \
    hodyn_irq_handler, /* 90 */ \
    hodyn_irq_handler, /* 91 */ \
    hodyn_irq_handler, /* 92 */ \
    hodyn_irq_handler, /* 93 */ \
    hodyn_irq_handler, /* 94 */ \
    hodyn_irq_handler, /* 95 */ \
    hodyn_irq_handler, /* 96 */ \
    hodyn_irq_handler, /* 97 */ \
    hodyn_irq_handler, /* 98 */ \
    hodyn_irq_handler, /* 99 */ \
    hodyn_irq_handler, /* 100 */ \
    hodyn_irq_handler, /* 101 */ \
    hodyn_irq_handler, /* 102 */ \
    hodyn_irq_handler, /* 103 */ \
    hodyn_irq_handler, /* 104 */ \
    hodyn_irq_handler, /* 105 */ \
    hodyn_irq_handler, /* 106 */ \
    hodyn_irq_handler, /* 107 */ \
    hodyn_irq_handler, /* 108 */ \
    hodyn_irq_handler, /* 109 */ \
    hodyn_irq_handler, /* 110 */ \
    hodyn_irq_handler, /* 111 */ \
    hodyn_irq_handler, /* 112 */ \
    hodyn_irq_handler, /* 113 */ \
    hodyn_irq_handler, /* 114 */ \
    hodyn_irq_handler, /* 115 */ \
    hodyn_irq_handler, /* 116 */ \
    hodyn_irq_handler, /* 117 */ \
    hodyn_irq_handler, /* 118 */ \
    hodyn_irq_handler, /* 119 */ \
    hodyn_irq_handler, /* 120 */ \
    hodyn_irq_handler, /* 121 */ \
    hodyn_irq_handler, /* 122 */ \
    hodyn_irq_handler, /* 123 */ \
    hodyn_irq_handler, /* 124 */ \
    hodyn_irq_handler, /* 125 */ \
    hodyn_irq_handler, /* 126 */ \
    hodyn_irq_handler, /* 127 */ \
    hodyn_irq_handler, /* 128 */ \
    hodyn_irq_handler, /* 129 */ \
    hodyn_irq_handler, /* 130 */ \
    hodyn_irq_handler, /* 131 */ \
    hodyn_irq_handler, /* 132 */ \
    hodyn_irq_handler, /* 133 */ \
    hodyn_irq_handler, /* 134 */ \
    hodyn_irq_handler, /* 135 */ \
    hodyn_irq_handler, /* 136 */ \
    hodyn_irq_handler, /* 137 */ \
    hodyn_irq_handler, /* 138 */ \
    hodyn_irq_handler, /* 139 */ \
    hodyn_irq_handler, /* 140 */ \
    hodyn_irq_handler, /* 141 */ \
    hodyn_irq_handler, /* 142 */ \
    hodyn_irq_handler, /* 143 */ \
    hodyn_irq_handler, /* 144 */ \
    hodyn_irq_handler, /* 145 */ \
    hodyn_irq_handler, /* 146 */ \
    hodyn_irq_handler, /* 147 */ \
    hodyn_irq_handler, /* 148 */ \
    hodyn_irq_handler, /* 149 */ \
  }

#endif
