#!/usr/bin/env bash
# The programs hodyn_add_robot(NAME ...) made in a downstream build directory:
# NAME-demo (robot_demo_program.sh) and the NAME-fc / NAME-sim pair
# (hil_pair.sh robot_udp). Run by run_consumer.cmake's RUN_SCRIPT
# (ctest example_flying_robot).
# Usage: robot_programs.sh <build dir> <NAME>
set -uo pipefail
BUILD=${1:?usage: robot_programs.sh <build dir> <NAME>}
NAME=${2:?usage}
HERE=$(cd "$(dirname "$0")" && pwd)
rc=0
echo "==== $NAME-demo"
bash "$HERE/robot_demo_program.sh" "$BUILD/$NAME-demo" "$NAME" || rc=1
echo "==== $NAME-fc / $NAME-sim"
bash "$HERE/hil_pair.sh" "$BUILD/$NAME-fc" "$BUILD/$NAME-sim" robot_udp "$NAME" || rc=1
exit "$rc"
