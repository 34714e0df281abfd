#!/usr/bin/env bash
# Lets this x86-64 machine run linux/arm64 programs: Debian's qemu-user-static registered with the kernel's binfmt_misc
# for aarch64 ELF files, so an arm64 binary runs as any program does (exec, /proc/self/exe, a copy of itself, another
# user, another namespace: the registration's F flag opens the interpreter once, here). native.sh --arch arm64 needs it
# to answer the builder's C queries, and scripts/test.sh to run the process-level tests on the arm64 binary.
#
# It needs root (mounting binfmt_misc, registering); anything it cannot do fails the run, saying what. qemu-user is not
# an arm64 machine: what it cannot show is in docs/native.md ("Under emulation").
#
#   bash scripts/emulation.sh     # silent when qemu-aarch64 is already registered
set -euo pipefail
say() { echo "emulation.sh: $*" >&2; }
entry=/proc/sys/fs/binfmt_misc/qemu-aarch64

enabled() { [ -f "$entry" ] && grep -qx enabled "$entry" && grep -q '^flags: .*F' "$entry"; }
enabled && exit 0
[ "$(id -u)" -eq 0 ] || { say "running arm64 binaries needs qemu-aarch64 registered with binfmt_misc, which only root can do"; exit 1; }

missing=()
[ -x /usr/libexec/qemu-binfmt/aarch64-binfmt-P ] || missing+=(qemu-user-static)
command -v update-binfmts >/dev/null || missing+=(binfmt-support)
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]} (apt-get)..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if [ ! -f /proc/sys/fs/binfmt_misc/register ]; then
  mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc \
    || { say "cannot mount binfmt_misc on /proc/sys/fs/binfmt_misc (a container without that right cannot run arm64 binaries)"; exit 1; }
fi
update-binfmts --enable qemu-aarch64 || { say "update-binfmts could not register qemu-aarch64"; exit 1; }
enabled || { say "qemu-aarch64 is not registered as enabled with the F flag: $(cat "$entry" 2>/dev/null || echo 'no entry')"; exit 1; }
say "qemu-aarch64 registered with binfmt_misc: $(sed -n 's/^interpreter //p' "$entry")"
