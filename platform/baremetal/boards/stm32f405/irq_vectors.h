/* boards/stm32f405/irq_vectors.h — the STM32F405/F407 external interrupts,
 * positions 0..81 of the vector table (RM0090 rev 19, section 12.2, table 61
 * "Vector table for STM32F405xx/07xx and STM32F415xx/17xx"). Included by
 * src/startup.c (HODYN_BAREMETAL_IRQ_VECTORS_HEADER, set by CMake): every
 * handler is weak and defaults to Default_Handler (which reports the
 * exception and stops); a driver defines the one it uses, e.g.
 * USART1_IRQHandler (usart1.cpp). Positions of peripherals the F405 lacks
 * (ETH, DCMI, CRYP, HASH: F407/F415/F417 only) stay unused. */
#ifndef HODYN_BOARDS_STM32F405_IRQ_VECTORS_H
#define HODYN_BOARDS_STM32F405_IRQ_VECTORS_H

#define HODYN_STM32F405_NUM_IRQS 82

HODYN_WEAK_HANDLER(WWDG_IRQHandler); /* 0 */
HODYN_WEAK_HANDLER(PVD_IRQHandler); /* 1 */
HODYN_WEAK_HANDLER(TAMP_STAMP_IRQHandler); /* 2 */
HODYN_WEAK_HANDLER(RTC_WKUP_IRQHandler); /* 3 */
HODYN_WEAK_HANDLER(FLASH_IRQHandler); /* 4 */
HODYN_WEAK_HANDLER(RCC_IRQHandler); /* 5 */
HODYN_WEAK_HANDLER(EXTI0_IRQHandler); /* 6 */
HODYN_WEAK_HANDLER(EXTI1_IRQHandler); /* 7 */
HODYN_WEAK_HANDLER(EXTI2_IRQHandler); /* 8 */
HODYN_WEAK_HANDLER(EXTI3_IRQHandler); /* 9 */
HODYN_WEAK_HANDLER(EXTI4_IRQHandler); /* 10 */
HODYN_WEAK_HANDLER(DMA1_Stream0_IRQHandler); /* 11 */
HODYN_WEAK_HANDLER(DMA1_Stream1_IRQHandler); /* 12 */
HODYN_WEAK_HANDLER(DMA1_Stream2_IRQHandler); /* 13 */
HODYN_WEAK_HANDLER(DMA1_Stream3_IRQHandler); /* 14 */
HODYN_WEAK_HANDLER(DMA1_Stream4_IRQHandler); /* 15 */
HODYN_WEAK_HANDLER(DMA1_Stream5_IRQHandler); /* 16 */
HODYN_WEAK_HANDLER(DMA1_Stream6_IRQHandler); /* 17 */
HODYN_WEAK_HANDLER(ADC_IRQHandler); /* 18 */
HODYN_WEAK_HANDLER(CAN1_TX_IRQHandler); /* 19 */
HODYN_WEAK_HANDLER(CAN1_RX0_IRQHandler); /* 20 */
HODYN_WEAK_HANDLER(CAN1_RX1_IRQHandler); /* 21 */
HODYN_WEAK_HANDLER(CAN1_SCE_IRQHandler); /* 22 */
HODYN_WEAK_HANDLER(EXTI9_5_IRQHandler); /* 23 */
HODYN_WEAK_HANDLER(TIM1_BRK_TIM9_IRQHandler); /* 24 */
HODYN_WEAK_HANDLER(TIM1_UP_TIM10_IRQHandler); /* 25 */
HODYN_WEAK_HANDLER(TIM1_TRG_COM_TIM11_IRQHandler); /* 26 */
HODYN_WEAK_HANDLER(TIM1_CC_IRQHandler); /* 27 */
HODYN_WEAK_HANDLER(TIM2_IRQHandler); /* 28 */
HODYN_WEAK_HANDLER(TIM3_IRQHandler); /* 29 */
HODYN_WEAK_HANDLER(TIM4_IRQHandler); /* 30 */
HODYN_WEAK_HANDLER(I2C1_EV_IRQHandler); /* 31 */
HODYN_WEAK_HANDLER(I2C1_ER_IRQHandler); /* 32 */
HODYN_WEAK_HANDLER(I2C2_EV_IRQHandler); /* 33 */
HODYN_WEAK_HANDLER(I2C2_ER_IRQHandler); /* 34 */
HODYN_WEAK_HANDLER(SPI1_IRQHandler); /* 35 */
HODYN_WEAK_HANDLER(SPI2_IRQHandler); /* 36 */
HODYN_WEAK_HANDLER(USART1_IRQHandler); /* 37 */
HODYN_WEAK_HANDLER(USART2_IRQHandler); /* 38 */
HODYN_WEAK_HANDLER(USART3_IRQHandler); /* 39 */
HODYN_WEAK_HANDLER(EXTI15_10_IRQHandler); /* 40 */
HODYN_WEAK_HANDLER(RTC_Alarm_IRQHandler); /* 41 */
HODYN_WEAK_HANDLER(OTG_FS_WKUP_IRQHandler); /* 42 */
HODYN_WEAK_HANDLER(TIM8_BRK_TIM12_IRQHandler); /* 43 */
HODYN_WEAK_HANDLER(TIM8_UP_TIM13_IRQHandler); /* 44 */
HODYN_WEAK_HANDLER(TIM8_TRG_COM_TIM14_IRQHandler); /* 45 */
HODYN_WEAK_HANDLER(TIM8_CC_IRQHandler); /* 46 */
HODYN_WEAK_HANDLER(DMA1_Stream7_IRQHandler); /* 47 */
HODYN_WEAK_HANDLER(FSMC_IRQHandler); /* 48 */
HODYN_WEAK_HANDLER(SDIO_IRQHandler); /* 49 */
HODYN_WEAK_HANDLER(TIM5_IRQHandler); /* 50 */
HODYN_WEAK_HANDLER(SPI3_IRQHandler); /* 51 */
HODYN_WEAK_HANDLER(UART4_IRQHandler); /* 52 */
HODYN_WEAK_HANDLER(UART5_IRQHandler); /* 53 */
HODYN_WEAK_HANDLER(TIM6_DAC_IRQHandler); /* 54 */
HODYN_WEAK_HANDLER(TIM7_IRQHandler); /* 55 */
HODYN_WEAK_HANDLER(DMA2_Stream0_IRQHandler); /* 56 */
HODYN_WEAK_HANDLER(DMA2_Stream1_IRQHandler); /* 57 */
HODYN_WEAK_HANDLER(DMA2_Stream2_IRQHandler); /* 58 */
HODYN_WEAK_HANDLER(DMA2_Stream3_IRQHandler); /* 59 */
HODYN_WEAK_HANDLER(DMA2_Stream4_IRQHandler); /* 60 */
HODYN_WEAK_HANDLER(ETH_IRQHandler); /* 61 */
HODYN_WEAK_HANDLER(ETH_WKUP_IRQHandler); /* 62 */
HODYN_WEAK_HANDLER(CAN2_TX_IRQHandler); /* 63 */
HODYN_WEAK_HANDLER(CAN2_RX0_IRQHandler); /* 64 */
HODYN_WEAK_HANDLER(CAN2_RX1_IRQHandler); /* 65 */
HODYN_WEAK_HANDLER(CAN2_SCE_IRQHandler); /* 66 */
HODYN_WEAK_HANDLER(OTG_FS_IRQHandler); /* 67 */
HODYN_WEAK_HANDLER(DMA2_Stream5_IRQHandler); /* 68 */
HODYN_WEAK_HANDLER(DMA2_Stream6_IRQHandler); /* 69 */
HODYN_WEAK_HANDLER(DMA2_Stream7_IRQHandler); /* 70 */
HODYN_WEAK_HANDLER(USART6_IRQHandler); /* 71 */
HODYN_WEAK_HANDLER(I2C3_EV_IRQHandler); /* 72 */
HODYN_WEAK_HANDLER(I2C3_ER_IRQHandler); /* 73 */
HODYN_WEAK_HANDLER(OTG_HS_EP1_OUT_IRQHandler); /* 74 */
HODYN_WEAK_HANDLER(OTG_HS_EP1_IN_IRQHandler); /* 75 */
HODYN_WEAK_HANDLER(OTG_HS_WKUP_IRQHandler); /* 76 */
HODYN_WEAK_HANDLER(OTG_HS_IRQHandler); /* 77 */
HODYN_WEAK_HANDLER(DCMI_IRQHandler); /* 78 */
HODYN_WEAK_HANDLER(CRYP_IRQHandler); /* 79 */
HODYN_WEAK_HANDLER(HASH_RNG_IRQHandler); /* 80 */
HODYN_WEAK_HANDLER(FPU_IRQHandler); /* 81 */

#define HODYN_BAREMETAL_IRQ_VECTORS \
  { \
    WWDG_IRQHandler, \
    PVD_IRQHandler, \
    TAMP_STAMP_IRQHandler, \
    RTC_WKUP_IRQHandler, \
    FLASH_IRQHandler, \
    RCC_IRQHandler, \
    EXTI0_IRQHandler, \
    EXTI1_IRQHandler, \
    EXTI2_IRQHandler, \
    EXTI3_IRQHandler, \
    EXTI4_IRQHandler, \
    DMA1_Stream0_IRQHandler, \
    DMA1_Stream1_IRQHandler, \
    DMA1_Stream2_IRQHandler, \
    DMA1_Stream3_IRQHandler, \
    DMA1_Stream4_IRQHandler, \
    DMA1_Stream5_IRQHandler, \
    DMA1_Stream6_IRQHandler, \
    ADC_IRQHandler, \
    CAN1_TX_IRQHandler, \
    CAN1_RX0_IRQHandler, \
    CAN1_RX1_IRQHandler, \
    CAN1_SCE_IRQHandler, \
    EXTI9_5_IRQHandler, \
    TIM1_BRK_TIM9_IRQHandler, \
    TIM1_UP_TIM10_IRQHandler, \
    TIM1_TRG_COM_TIM11_IRQHandler, \
    TIM1_CC_IRQHandler, \
    TIM2_IRQHandler, \
    TIM3_IRQHandler, \
    TIM4_IRQHandler, \
    I2C1_EV_IRQHandler, \
    I2C1_ER_IRQHandler, \
    I2C2_EV_IRQHandler, \
    I2C2_ER_IRQHandler, \
    SPI1_IRQHandler, \
    SPI2_IRQHandler, \
    USART1_IRQHandler, \
    USART2_IRQHandler, \
    USART3_IRQHandler, \
    EXTI15_10_IRQHandler, \
    RTC_Alarm_IRQHandler, \
    OTG_FS_WKUP_IRQHandler, \
    TIM8_BRK_TIM12_IRQHandler, \
    TIM8_UP_TIM13_IRQHandler, \
    TIM8_TRG_COM_TIM14_IRQHandler, \
    TIM8_CC_IRQHandler, \
    DMA1_Stream7_IRQHandler, \
    FSMC_IRQHandler, \
    SDIO_IRQHandler, \
    TIM5_IRQHandler, \
    SPI3_IRQHandler, \
    UART4_IRQHandler, \
    UART5_IRQHandler, \
    TIM6_DAC_IRQHandler, \
    TIM7_IRQHandler, \
    DMA2_Stream0_IRQHandler, \
    DMA2_Stream1_IRQHandler, \
    DMA2_Stream2_IRQHandler, \
    DMA2_Stream3_IRQHandler, \
    DMA2_Stream4_IRQHandler, \
    ETH_IRQHandler, \
    ETH_WKUP_IRQHandler, \
    CAN2_TX_IRQHandler, \
    CAN2_RX0_IRQHandler, \
    CAN2_RX1_IRQHandler, \
    CAN2_SCE_IRQHandler, \
    OTG_FS_IRQHandler, \
    DMA2_Stream5_IRQHandler, \
    DMA2_Stream6_IRQHandler, \
    DMA2_Stream7_IRQHandler, \
    USART6_IRQHandler, \
    I2C3_EV_IRQHandler, \
    I2C3_ER_IRQHandler, \
    OTG_HS_EP1_OUT_IRQHandler, \
    OTG_HS_EP1_IN_IRQHandler, \
    OTG_HS_WKUP_IRQHandler, \
    OTG_HS_IRQHandler, \
    DCMI_IRQHandler, \
    CRYP_IRQHandler, \
    HASH_RNG_IRQHandler, \
    FPU_IRQHandler, \
  }

#endif
