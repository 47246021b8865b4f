#!/usr/bin/env bash
# ctest security_cli: hodyn-fc and hodyn-sim refuse a bad --key-file or --bind
# with exit status 2 and one line on stderr naming the file and the reason
# (docs/link-security.md), before they open the link; the key's bytes never
# appear in what they print.
# Further executables (a robot's own NAME-fc / NAME-sim) get the same checks.
# Usage: security_cli.sh <hodyn-fc> <hodyn-sim> [<NAME-fc> <NAME-sim> ...]
set -uo pipefail
FC=${1:?usage: security_cli.sh <hodyn-fc> <hodyn-sim>}
SIM=${2:?usage}
PROGRAMS=("$@")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

failures=0
# A key whose hex (and raw bytes) we look for in every output.
printf 'hodyn-test-key-0123456789abcdef' >"$WORK/31.bin"                 # 31 bytes
printf 'hodyn-test-key-0123456789abcdefX' >"$WORK/open.bin"             # 32 bytes
printf 'hodyn-test-key-0123456789abcdefXY' >"$WORK/33.bin"              # 33 bytes
head -c 32 /dev/zero >"$WORK/zero.bin"
chmod 600 "$WORK/31.bin" "$WORK/33.bin" "$WORK/zero.bin"
chmod 644 "$WORK/open.bin"
mkdir "$WORK/dir"

check() {  # expected-words exe args...
  local words=$1 exe=$2
  shift 2
  "$exe" --udp 1:127.0.0.1:2 "$@" >"$WORK/out" 2>"$WORK/err"
  local rc=$?
  local lines
  lines=$(wc -l <"$WORK/err")
  if [[ $rc -eq 2 && $lines -eq 1 ]] && grep -q -- "$words" "$WORK/err" &&
    ! grep -q "hodyn-test-key" "$WORK/out" "$WORK/err" &&
    ! grep -qi "686f64796e" "$WORK/out" "$WORK/err"; then
    echo "ok   $(basename "$exe") $*: $(cat "$WORK/err")"
  else
    echo "FAIL $(basename "$exe") $* (exit $rc, $lines lines; expected exit 2, one line with '$words')"
    cat "$WORK/out" "$WORK/err"
    failures=$((failures + 1))
  fi
}

for exe in "${PROGRAMS[@]}"; do
  check "No such file" "$exe" --key-file "$WORK/missing.bin"
  check "mode 0644" "$exe" --key-file "$WORK/open.bin"
  check "holds 31 bytes" "$exe" --key-file "$WORK/31.bin"
  check "holds 33 bytes" "$exe" --key-file "$WORK/33.bin"
  check "all zeros" "$exe" --key-file "$WORK/zero.bin"
  check "not a regular file" "$exe" --key-file "$WORK/dir"
  check "needs a value" "$exe" --key-file
  check "dotted IPv4" "$exe" --bind 300.1.2.3
  check "needs a value" "$exe" --bind
  check "chmod 600" "$exe" --key-file "$WORK/open.bin"
done
# The firmware's provisioning script applies the same key-file rules before it
# touches an image (no objcopy needed to refuse): exit 2, one line, no output
# image, no key bytes (docs/robustness.md, "Firmware inputs").
PROVISION=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/platform/baremetal/flight_controller/provision_link_key.sh
check_provision() {  # expected-words key-file image
  local words=$1
  bash "$PROVISION" "$2" "$3" "$WORK/out.elf" /bin/false >"$WORK/out" 2>"$WORK/err"
  local rc=$? lines
  lines=$(wc -l <"$WORK/err")
  if [[ $rc -eq 2 && $lines -eq 1 && ! -e $WORK/out.elf ]] && grep -q -- "$words" "$WORK/err" &&
    ! grep -q "hodyn-test-key" "$WORK/out" "$WORK/err"; then
    echo "ok   provision_link_key.sh $(basename "$2"): $(cat "$WORK/err")"
  else
    echo "FAIL provision_link_key.sh $2 $3 (exit $rc, $lines lines; expected exit 2, one line with '$words')"
    cat "$WORK/out" "$WORK/err"
    failures=$((failures + 1))
  fi
}
printf 'hodyn-test-key-0123456789abcdefX' >"$WORK/good.bin"
chmod 600 "$WORK/good.bin"
check_provision "No such file" "$WORK/missing.bin" "$WORK/in.elf"
check_provision "mode 0644" "$WORK/open.bin" "$WORK/in.elf"
check_provision "holds 31 bytes" "$WORK/31.bin" "$WORK/in.elf"
check_provision "holds 33 bytes" "$WORK/33.bin" "$WORK/in.elf"
check_provision "all zeros" "$WORK/zero.bin" "$WORK/in.elf"
check_provision "not a regular file" "$WORK/dir" "$WORK/in.elf"
check_provision "no image" "$WORK/good.bin" "$WORK/in.elf"
# All list the options in --help.
# (The text is read whole first: `--help | grep -q` under pipefail fails when
# grep exits at its match before a help longer than one write (4 KiB: hodyn-sim's
# since its process-fault options) is written — SIGPIPE, exit 141.)
for exe in "${PROGRAMS[@]}"; do
  help_text=$("$exe" --help)
  for opt in --key-file --bind --record; do
    grep -q -- "$opt" <<<"$help_text" || { echo "FAIL $(basename "$exe") --help lacks $opt"; failures=$((failures + 1)); }
  done
done
echo "$failures failure(s)"
exit "$failures"
