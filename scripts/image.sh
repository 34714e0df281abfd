#!/usr/bin/env bash
# The release image: one OCI image index for linux/amd64 and linux/arm64, FROM scratch, non-root, whose two binaries are
# byte for byte the ones this machine built and tested (scripts/native.sh; scripts/test.sh runs the process-level tests
# on both). GraalVM's builds are not reproducible (oracle/graal#291), so the image is assembled from those files, never
# built again: the Dockerfile only copies them. Made with Debian's buildah (no registry is pulled from), then checked:
# the index names both platforms, each image holds the binary CI tested (sha256) and the SBOM, runs it as uid 65532
# with no capability (podman, runc), the arm64 one under qemu-user (scripts/emulation.sh). .ci/run calls it.
#
#   bash scripts/image.sh    # target/image/oci (an OCI layout) and target/image/sidecar-wait-VERSION.oci.tar
#
# Push it with the binaries it holds: skopeo copy --all oci-archive:target/image/sidecar-wait-VERSION.oci.tar docker://...
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
say() { echo "image.sh: $*" >&2; }

# Each podman run leaves a conmon behind it, reparented to PID 1, which stays a zombie where PID 1 does not reap: the
# whole script runs in a PID namespace of its own, whose first process (bash) reaps them and whose end takes them all.
if [ -z "${IMAGE_SH_PID_NAMESPACE:-}" ]; then
  [ "$(id -u)" -eq 0 ] || { say "needs root: podman and buildah as root, a PID namespace"; exit 1; }
  bash scripts/emulation.sh  # before: the namespace's own /proc has no binfmt_misc mounted on it
  exec unshare --fork --pid --kill-child --mount-proc env IMAGE_SH_PID_NAMESPACE=1 bash "$0" "$@"
fi

declare -A binary=([amd64]=target/sidecar-wait [arm64]=target/arm64/sidecar-wait)
for arch in amd64 arm64; do
  [ -x "${binary[$arch]}" ] || { say "no ${binary[$arch]}: build it first (bash scripts/native.sh --arch $arch)"; exit 1; }
done
[ -f target/sidecar-wait.cdx.json ] || { say "no target/sidecar-wait.cdx.json: build the jar first (mvn -B package)"; exit 1; }

missing=()
command -v buildah >/dev/null || missing+=(buildah)
command -v podman >/dev/null || missing+=(podman)
command -v runc >/dev/null || missing+=(runc)  # crun refuses these machines' hybrid cgroups
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]} (apt-get)..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

version=$("${binary[amd64]}" --version | sed -n 's/^sidecar-wait \([^ ]*\) .*/\1/p')
out=target/image
rm -rf "$out" && mkdir -p "$out/context"
# A store of its own (vfs: no overlay on an overlay), so nothing is left in the machine's and a run starts clean.
store=(--root "$root/$out/storage" --runroot "$root/$out/run" --storage-driver vfs)
for arch in amd64 arm64; do
  mkdir -p "$out/context/linux/$arch"
  cp "${binary[$arch]}" "$out/context/linux/$arch/sidecar-wait"
done
cp target/sidecar-wait.cdx.json "$out/context/"

# --- the image index ----------------------------------------------------------------------------------------------
name=localhost/sidecar-wait:$version
when=$(git log -1 --format=%ct 2>/dev/null || echo 0)  # the commit's time, for every timestamp: the same files, the same image
buildah "${store[@]}" build --quiet --timestamp "$when" --platform linux/amd64,linux/arm64 --manifest "$name" \
  -f Dockerfile "$out/context" >/dev/null
buildah "${store[@]}" manifest push --quiet --all --format oci "$name" "oci:$root/$out/oci" >/dev/null
tar -C "$out/oci" --sort=name --mtime="@$when" --owner=0 --group=0 --numeric-owner -cf "$out/sidecar-wait-$version.oci.tar" .

# --- what it holds ------------------------------------------------------------------------------------------------
blob() { echo "$out/oci/blobs/sha256/${1#sha256:}"; }
digest_of() { grep -o '"digest":"sha256:[0-9a-f]*"' <<< "$1" | sed -n "${2}p" | cut -d'"' -f4; }
index=$(cat "$(blob "$(digest_of "$(cat "$out/oci/index.json")" 1)")")
grep -q '"mediaType":"application/vnd.oci.image.index.v1+json"' <<< "$index" || { say "not an OCI image index: $index"; exit 1; }
[ "$(grep -o '"platform"' <<< "$index" | wc -l)" -eq 2 ] || { say "the index does not hold two images: $index"; exit 1; }
for arch in amd64 arm64; do
  entry=$(grep -o "{[^{}]*\"digest\":\"sha256:[0-9a-f]*\",[^{}]*\"platform\":{\"architecture\":\"$arch\",\"os\":\"linux\"}" <<< "$index") \
    || { say "the index has no linux/$arch image: $index"; exit 1; }
  manifest=$(cat "$(blob "$(digest_of "$entry" 1)")")
  config=$(cat "$(blob "$(digest_of "$manifest" 1)")")
  for want in '"User":"65532:65532"' '"Entrypoint":\["/sidecar-wait"\]' "\"architecture\":\"$arch\"" '"os":"linux"'; do
    grep -q "$want" <<< "$config" || { say "linux/$arch: the image's config lacks $want: $config"; exit 1; }
  done
  [ "$(grep -o '"digest"' <<< "$manifest" | wc -l)" -eq 2 ] || { say "linux/$arch: not one layer: $manifest"; exit 1; }
  layer=$(blob "$(digest_of "$manifest" 2)")
  files=$(tar -tzf "$layer" | sed 's|^\./||' | grep -v '/$' | sort | tr '\n' ' ')
  [ "$files" = "sidecar-wait sidecar-wait.cdx.json " ] || { say "linux/$arch: the layer holds $files"; exit 1; }
  held=$(tar -xzOf "$layer" --wildcards '*sidecar-wait' --exclude '*.json' | sha256sum | cut -c1-64)
  tested=$(sha256sum "${binary[$arch]}" | cut -c1-64)
  [ "$held" = "$tested" ] || { say "linux/$arch: the image's binary ($held) is not the one tested (${binary[$arch]}, $tested)"; exit 1; }
  echo "image.sh: linux/$arch: sidecar-wait sha256 $tested, as tested; user 65532:65532; SBOM beside it"
done

# --- what it does, each platform picked from the index as a node's runtime picks it --------------------------------
run=(podman "${store[@]}" --runtime runc run --network=none --cap-drop=all --security-opt no-new-privileges
  --ulimit nofile=1024:1024 --ulimit nproc=1024:1024)
trap 'podman "${store[@]}" rm -f -a >/dev/null 2>&1 || true' EXIT
for arch in amd64 arm64; do
  said=$("${run[@]}" --rm --platform "linux/$arch" "oci:$root/$out/oci" --version 2>&1 | tail -1)
  grep -q "^sidecar-wait $version (commit .*, linux/$arch, native)$" <<< "$said" || { say "linux/$arch --version: $said"; exit 1; }
  container=$("${run[@]}" -d --platform "linux/$arch" "oci:$root/$out/oci" wait --url tcp://127.0.0.1:1 --timeout 60s 2>/dev/null | tail -1)
  pid=$(podman "${store[@]}" inspect --format '{{.State.Pid}}' "$container")
  status=$(cat "/proc/$pid/status" 2>/dev/null) && [ "$pid" -gt 0 ] \
    || { say "linux/$arch: the wait is not running: $(podman "${store[@]}" logs "$container" 2>&1 | tail -3)"; exit 1; }
  podman "${store[@]}" rm -f "$container" >/dev/null
  grep -qP '^Uid:\t65532\t65532\t65532\t65532$' <<< "$status" || { say "linux/$arch runs as $(grep ^Uid <<< "$status")"; exit 1; }
  grep -qP '^Gid:\t65532\t65532\t65532\t65532$' <<< "$status" || { say "linux/$arch runs as $(grep ^Gid <<< "$status")"; exit 1; }
  for set in CapInh CapPrm CapEff CapAmb; do
    grep -qP "^$set:\t0{16}$" <<< "$status" || { say "linux/$arch has capabilities: $(grep "^$set" <<< "$status")"; exit 1; }
  done
  echo "image.sh: linux/$arch: runs (${said#sidecar-wait }) as uid and gid 65532 with no capability"
done
echo "image.sh: $out/sidecar-wait-$version.oci.tar: one OCI image index, linux/amd64 and linux/arm64"
