# Security of the HIL link (docs/link-security.md; label security): the MAC
# against published vectors and libsodium, signed frames, the replay window,
# the controller host against a replayed session, the key file, the UDP peer
# filter, the programs' key options, and an attacker on the loopback during a
# lockstep HIL run (link_attack.sh). Included from tests/CMakeLists.txt
# (paths relative to tests/).

if(TARGET hodyn::link)
  hodyn_add_test(test_siphash security/test_siphash.cpp
    LABELS unit security link LINK hodyn::link)
  hodyn_add_test(test_link_security security/test_link_security.cpp
    LABELS unit security link LINK hodyn::link)

  # libsodium (Debian libsodium-dev): a well-kept SipHash-2-4-128 to check
  # ours against; a test-only dependency of the host build.
  find_path(HODYN_SODIUM_INCLUDE_DIR sodium.h)
  find_library(HODYN_SODIUM_LIBRARY sodium)
  if(HODYN_SODIUM_INCLUDE_DIR AND HODYN_SODIUM_LIBRARY AND NOT CMAKE_CROSSCOMPILING)
    hodyn_add_test(test_siphash_libsodium security/test_siphash_libsodium.cpp
      LABELS unit security link LINK hodyn::link ${HODYN_SODIUM_LIBRARY})
    if(TARGET test_siphash_libsodium)
      target_include_directories(test_siphash_libsodium PRIVATE ${HODYN_SODIUM_INCLUDE_DIR})
    endif()
  elseif(NOT CMAKE_CROSSCOMPILING)
    message(WARNING "hodyn: libsodium-dev not found: test_siphash_libsodium (SipHash-2-4-128 "
      "against libsodium on 2000 random inputs) is not built; apt-get install libsodium-dev")
  endif()
endif()

if(TARGET hodyn::posix)
  hodyn_add_test(test_link_key_file security/test_link_key_file.cpp
    LABELS unit security LINK hodyn::posix)
  hodyn_add_test(test_udp_peer security/test_udp_peer.cpp
    LABELS unit security hil LINK hodyn::posix)
endif()

if(TARGET hodyn-fc AND TARGET hodyn-sim AND NOT CMAKE_CROSSCOMPILING)
  # The programs' key and bind options: exit 2 and one clear line each.
  # With octo_arm (core/robots): its own octo_arm-fc / octo_arm-sim too, the
  # programs hodyn_add_robot() makes for a user's robot.
  set(_security_programs $<TARGET_FILE:hodyn-fc> $<TARGET_FILE:hodyn-sim>)
  if(TARGET octo_arm-fc AND TARGET octo_arm-sim)
    list(APPEND _security_programs $<TARGET_FILE:octo_arm-fc> $<TARGET_FILE:octo_arm-sim>)
  endif()
  add_test(NAME security_cli
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/security/security_cli.sh ${_security_programs})
  set_tests_properties(security_cli PROPERTIES LABELS "security;tools" TIMEOUT 60)
  # A third process on the loopback replays, forges and floods >= 10 000
  # frames during a signed lockstep run: the run is identical bit for bit, the
  # counters equal what it sent; and a whole recorded session replayed to a
  # restarted controller does not arm it.
  find_program(HODYN_SECURITY_PYTHON NAMES python3)
  if(HODYN_SECURITY_PYTHON)
    add_test(NAME security_link_attack
      COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/security/link_attack.sh
        $<TARGET_FILE:hodyn-fc> $<TARGET_FILE:hodyn-sim> ${HODYN_SECURITY_PYTHON})
    set_tests_properties(security_link_attack PROPERTIES LABELS "security;hil;tools" TIMEOUT 120
      RUN_SERIAL TRUE)
  endif()
endif()
