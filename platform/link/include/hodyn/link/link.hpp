// hodyn/link/link.hpp — everything of the HIL link protocol (docs/link-protocol.md,
// docs/link-security.md).
#pragma once

#include "hodyn/link/cobs.hpp"
#include "hodyn/link/crc32.hpp"
#include "hodyn/link/frame_parser.hpp"
#include "hodyn/link/handshake.hpp"
#include "hodyn/link/link_monitor.hpp"
#include "hodyn/link/protocol.hpp"
#include "hodyn/link/reference_extrapolation.hpp"
#include "hodyn/link/security.hpp"
#include "hodyn/link/siphash.hpp"
#include "hodyn/link/transport.hpp"
