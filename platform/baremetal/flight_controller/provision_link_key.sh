#!/usr/bin/env bash
# provision_link_key.sh — writes the HIL link's shared key into a copy of a
# controller firmware image (docs/link-security.md, "Provisioning").
#
#   provision_link_key.sh KEY_FILE IN.elf OUT.elf [OBJCOPY]
#
# The image keeps the key in its own flash section, .hodyn_link_key (32 bytes,
# zeros as built = an unsigned link). This replaces the section's bytes with
# the key file's (objcopy --update-section), checks them back, and writes
# OUT.elf with mode 0600 (it holds the key), atomically: on any error nothing
# is written. KEY_FILE follows hodyn-fc's --key-file rules: a regular file of
# exactly 32 bytes, no access for group or others (0600 or 0400), not all
# zeros. OBJCOPY defaults to arm-none-eabi-objcopy. Flash OUT.elf (or its
# .bin: objcopy -O binary) like any image; the key never leaves the two files.
set -euo pipefail
KEY=${1:?usage: provision_link_key.sh KEY_FILE IN.elf OUT.elf [OBJCOPY]}
IN=${2:?usage: provision_link_key.sh KEY_FILE IN.elf OUT.elf [OBJCOPY]}
OUT=${3:?usage: provision_link_key.sh KEY_FILE IN.elf OUT.elf [OBJCOPY]}
OBJCOPY=${4:-arm-none-eabi-objcopy}
fail() { echo "provision_link_key.sh: $*" >&2; exit 2; }

[[ -e $KEY ]] || fail "key file $KEY: No such file or directory"
[[ -f $KEY ]] || fail "key file $KEY is not a regular file"
mode=$(stat -L -c %a "$KEY")
(( (8#$mode & 8#077) == 0 && (8#$mode & 8#400) != 0 )) ||
  fail "key file $KEY has mode 0$mode; it must be readable by its owner only (chmod 600 $KEY)"
size=$(stat -L -c %s "$KEY")
[[ $size -eq 32 ]] || fail "key file $KEY holds $size bytes; a key is exactly 32 bytes"
[[ -n $(tr -d '\0' <"$KEY" | head -c 1) ]] || fail "key file $KEY is all zeros, which is not a key"
[[ -f $IN ]] || fail "no image $IN"
command -v "$OBJCOPY" >/dev/null || fail "no $OBJCOPY"

umask 077
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hodyn-provision.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# The section must be there, 32 bytes long (an image built from this tree).
"$OBJCOPY" --dump-section .hodyn_link_key="$tmp/before" "$IN" "$tmp/scratch.elf" 2>/dev/null ||
  fail "$IN has no .hodyn_link_key section (not a hodyn controller image?)"
[[ $(stat -c %s "$tmp/before") -eq 32 ]] || fail "$IN: .hodyn_link_key is not 32 bytes"
"$OBJCOPY" --update-section .hodyn_link_key="$KEY" "$IN" "$tmp/out.elf"
"$OBJCOPY" --dump-section .hodyn_link_key="$tmp/after" "$tmp/out.elf" "$tmp/scratch.elf"
cmp -s "$tmp/after" "$KEY" || fail "the key did not land in $OUT's section"
chmod 600 "$tmp/out.elf"
mv -f "$tmp/out.elf" "$OUT"
echo "provision_link_key.sh: $OUT holds the key of $KEY (section .hodyn_link_key, mode 0600)"
