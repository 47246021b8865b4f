#!/usr/bin/env bash
# ctest firmware_hil_signed_<board>: the firmware HIL over a signed link
# (docs/link-security.md). A test key (made once in --work, mode 0600) is
# provisioned into a copy of the image (provision_link_key.sh: objcopy
# --update-section .hodyn_link_key), hodyn-sim gets the same key file, and
# the firmware keeps its boot counter in --work from run to run (each run is
# a new boot, a new session key). Then firmware_hil.sh checks as for the
# unsigned run, plus a signed link on both sides with nothing rejected. With
# --unsigned-json (the unsigned run of the same image), prints what signing
# adds per step: the link's instructions besides update(), signed - unsigned.
#
# Usage: firmware_hil_signed.sh --objcopy OBJCOPY --provision SCRIPT --work DIR
#          [--unsigned-json FILE] -- <firmware_hil.sh options: --image IMAGE --out OUT ...>
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
OBJCOPY=arm-none-eabi-objcopy PROVISION= WORK= UNSIGNED_JSON=
while [[ $# -gt 0 && $1 != -- ]]; do
  case "$1" in
    --objcopy) OBJCOPY=$2 ;;
    --provision) PROVISION=$2 ;;
    --work) WORK=$2 ;;
    --unsigned-json) UNSIGNED_JSON=$2 ;;
    *) echo "firmware_hil_signed.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift 2
done
shift  # --
[[ -n $PROVISION && -n $WORK ]] || { echo "firmware_hil_signed.sh: missing options" >&2; exit 2; }
args=() IMAGE= OUT= PY=python3
while [[ $# -gt 0 ]]; do
  case "$1" in
    --image) IMAGE=$2; shift 2 ;;
    --out) OUT=$2; args+=("$1" "$2"); shift 2 ;;
    --python) PY=$2; args+=("$1" "$2"); shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
[[ -f $IMAGE && -n $OUT ]] || { echo "FAIL: no image ($IMAGE) or --out"; exit 1; }

mkdir -p "$WORK"
chmod 700 "$WORK"
KEY=$WORK/link.key
if [[ ! -s $KEY ]]; then
  (umask 077 && head -c 32 /dev/urandom >"$KEY.tmp" && mv "$KEY.tmp" "$KEY")
fi
SIGNED_IMAGE=$WORK/$(basename "${IMAGE%.elf}")-signed.elf
bash "$PROVISION" "$KEY" "$IMAGE" "$SIGNED_IMAGE" "$OBJCOPY" || { echo "FAIL: provisioning"; exit 1; }
bash "$HERE/firmware_hil.sh" "${args[@]}" --image "$SIGNED_IMAGE" --key-file "$KEY" \
  --state-dir "$WORK"
rc=$?
if [[ $rc -eq 0 && -n $UNSIGNED_JSON && -f $UNSIGNED_JSON ]]; then
  "$PY" - "$UNSIGNED_JSON" "$OUT" <<'PYEOF'
import json, sys
u, s = (json.load(open(p)) for p in sys.argv[1:3])
lu, ls = u.get("link_instructions_per_step_mean"), s.get("link_instructions_per_step_mean")
if lu is not None and ls is not None:
    print(f"the signed link costs {ls - lu:+.0f} instructions per step besides update() "
          f"({lu:.0f} unsigned -> {ls:.0f} signed); update() itself "
          f"{u['instructions_per_step_mean']:.0f} -> {s['instructions_per_step_mean']:.0f}")
PYEOF
fi
exit $rc
