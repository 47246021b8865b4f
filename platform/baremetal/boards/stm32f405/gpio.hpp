// boards/stm32f405/gpio.hpp — a pin to one of its alternate functions: the
// STM32 GPIO helper shared with the H743 (../stm32/gpio_alternate_function.hpp;
// RM0090 rev 19, 8.4). The port's clock (RCC_AHB1ENR) must be on.
#pragma once

#include "gpio_alternate_function.hpp"

namespace hodyn {
namespace baremetal {
namespace stm32f405 {

using stm32::gpio_alternate_function;

}  // namespace stm32f405
}  // namespace baremetal
}  // namespace hodyn
