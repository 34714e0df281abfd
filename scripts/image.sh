#!/usr/bin/env bash
# The release image: one OCI image index for linux/amd64 and linux/arm64/v8, FROM scratch, non-root, whose two binaries
# are byte for byte the ones this machine built and tested (scripts/native.sh; scripts/test.sh runs the process-level
# tests on both). GraalVM's builds are not reproducible (oracle/graal#291), so the image is assembled from those files,
# never built again: the Dockerfile only copies them, with each binary's SBOM and third-party notices, LICENSE and the
# /etc/passwd and /etc/group entries of its user. Made with Debian's buildah (no registry is pulled from), then checked:
# the index names both platforms (arm64 with its v8 variant) and its tag; the index, each image's manifest and config
# carry the OCI annotations and labels (title, description, version, revision, created, source, licenses), each from
# one place (pom.xml, the commit); each layer holds exactly the binary CI tested (sha256), its SBOM (whose version is
# the image's), its notices, LICENSE and etc/; each platform runs as 65532:65532 with no capability (podman, runc; the
# arm64 one under qemu-user, scripts/emulation.sh), also when started as a kubelet starts it, with the uid alone.
# Beside the image: the binaries and their SBOMs as release files, and SHA256SUMS of them all. .ci/run calls it.
#
#   bash scripts/image.sh    # target/image/oci (an OCI layout), target/image/sidecar-wait-VERSION.oci.tar,
#                            # target/image/sidecar-wait-VERSION-linux-{amd64,arm64}[.cdx.json], target/image/SHA256SUMS
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
declare -A build=([amd64]=target/native [arm64]=target/native-arm64)
for arch in amd64 arm64; do
  [ -x "${binary[$arch]}" ] || { say "no ${binary[$arch]}: build it first (bash scripts/native.sh --arch $arch)"; exit 1; }
  for file in sidecar-wait.cdx.json THIRD-PARTY-NOTICES.txt; do
    [ -f "${build[$arch]}/$file" ] || { say "no ${build[$arch]}/$file: build it first (bash scripts/native.sh --arch $arch)"; exit 1; }
  done
done

missing=()
command -v buildah >/dev/null || missing+=(buildah)
command -v podman >/dev/null || missing+=(podman)
command -v runc >/dev/null || missing+=(runc)  # crun refuses these machines' hybrid cgroups
command -v jq >/dev/null || missing+=(jq)
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]} (apt-get)..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# --- what the image says it is, each from one place: pom.xml (version, description, home, licence), the commit -----
pom() { sed -n "$1" pom.xml | head -1; }
version=$(pom 's:^  <version>\(.*\)</version>$:\1:p')
said=$("${binary[amd64]}" --version | sed -n 's/^sidecar-wait \([^ ]*\) .*/\1/p')
[ "$said" = "$version" ] || { say "the binary says version '$said', pom.xml '$version': rebuild it"; exit 1; }
when=$(git log -1 --format=%ct 2>/dev/null || echo 0)  # the commit's time, for every timestamp: the same files, the same image
declare -A meta=(
  [org.opencontainers.image.title]=sidecar-wait
  [org.opencontainers.image.description]=$(pom 's:^  <description>\(.*\)</description>$:\1:p')
  [org.opencontainers.image.version]=$version
  [org.opencontainers.image.revision]=$(git rev-parse HEAD 2>/dev/null || echo unknown)
  [org.opencontainers.image.created]=$(date -u -d "@$when" +%Y-%m-%dT%H:%M:%SZ)
  [org.opencontainers.image.source]=$(pom 's:^  <url>\(.*\)</url>$:\1:p')
  [org.opencontainers.image.licenses]=$(sed -n '/<licenses>/,/<\/licenses>/s:.*<name>\(.*\)</name>.*:\1:p' pom.xml | head -1)
)
for key in "${!meta[@]}"; do [ -n "${meta[$key]}" ] || { say "no value for $key in pom.xml or git"; exit 1; }; done
annotations=() && for key in "${!meta[@]}"; do annotations+=(--annotation "$key=${meta[$key]}"); done
meta_json=$(for key in "${!meta[@]}"; do jq -n --arg k "$key" --arg v "${meta[$key]}" '{($k): $v}'; done | jq -s -S 'add')

out=target/image
rm -rf "$out" && mkdir -p "$out/context"
# A store of its own (vfs: no overlay on an overlay), so nothing is left in the machine's and a run starts clean.
store=(--root "$root/$out/storage" --runroot "$root/$out/run" --storage-driver vfs)
for arch in amd64 arm64; do
  mkdir -p "$out/context/linux/$arch"
  cp "${binary[$arch]}" "${build[$arch]}/sidecar-wait.cdx.json" "${build[$arch]}/THIRD-PARTY-NOTICES.txt" "$out/context/linux/$arch/"
done
cp LICENSE "$out/context/" && cp -r image/etc "$out/context/"

# --- the image index ----------------------------------------------------------------------------------------------
name=localhost/sidecar-wait:$version
buildah "${store[@]}" build --quiet --timestamp "$when" --platform linux/amd64,linux/arm64/v8 --manifest "$name" \
  --build-arg VERSION="$version" --build-arg REVISION="${meta[org.opencontainers.image.revision]}" \
  --build-arg CREATED="${meta[org.opencontainers.image.created]}" --build-arg SOURCE="${meta[org.opencontainers.image.source]}" \
  --build-arg DESCRIPTION="${meta[org.opencontainers.image.description]}" "${annotations[@]}" \
  -f Dockerfile "$out/context" >/dev/null
for digest in $(buildah "${store[@]}" manifest inspect "$name" | jq -r '.manifests[].digest'); do
  buildah "${store[@]}" manifest annotate "${annotations[@]}" "$name" "$digest" >/dev/null  # the index's entries
done
buildah "${store[@]}" manifest push --quiet --all --format oci "$name" "oci:$root/$out/oci:$version" >/dev/null
# The index's own annotations, which registries show for a multi-platform image; buildah 1.28 sets only its entries'.
# The index is a blob named by its digest: written anew, and the layout's index.json pointed at it.
blob() { echo "$out/oci/blobs/sha256/${1#sha256:}"; }
old=$(jq -r '.manifests[0].digest' "$out/oci/index.json")
jq -c --argjson meta "$meta_json" '.annotations = $meta' "$(blob "$old")" > "$out/index.blob"
new=sha256:$(sha256sum "$out/index.blob" | cut -c1-64)
mv "$out/index.blob" "$(blob "$new")" && rm "$(blob "$old")"
jq -c --arg d "$new" --argjson s "$(stat -c %s "$(blob "$new")")" '.manifests[0].digest = $d | .manifests[0].size = $s' \
  "$out/oci/index.json" > "$out/index.json" && mv "$out/index.json" "$out/oci/index.json"
tar -C "$out/oci" --sort=name --mtime="@$when" --owner=0 --group=0 --numeric-owner -cf "$out/sidecar-wait-$version.oci.tar" .

# --- what it holds ------------------------------------------------------------------------------------------------
fail() { say "$*"; exit 1; }
layout=$(cat "$out/oci/index.json")
[ "$(jq -r '.manifests[0].annotations["org.opencontainers.image.ref.name"]' <<< "$layout")" = "$version" ] \
  || fail "the layout does not name the index $version: $layout"
index=$(cat "$(blob "$(jq -r '.manifests[0].digest' <<< "$layout")")")
[ "$(jq -r .mediaType <<< "$index")" = application/vnd.oci.image.index.v1+json ] || fail "not an OCI image index: $index"
[ "$(jq -S .annotations <<< "$index")" = "$(jq -S . <<< "$meta_json")" ] || fail "the index's annotations: $(jq -c .annotations <<< "$index")"
[ "$(jq -c '[.manifests[].platform] | sort_by(.architecture)' <<< "$index")" \
  = '[{"architecture":"amd64","os":"linux"},{"architecture":"arm64","os":"linux","variant":"v8"}]' ] \
  || fail "the index's platforms: $(jq -c '[.manifests[].platform]' <<< "$index")"
has_meta() { [ "$(jq -S --argjson m "$meta_json" "$1 | with_entries(select(.key | in(\$m)))" <<< "$2")" = "$(jq -S . <<< "$meta_json")" ]; }
for arch in amd64 arm64; do
  entry=$(jq -c --arg a "$arch" '.manifests[] | select(.platform.architecture == $a)' <<< "$index")
  has_meta .annotations "$entry" || fail "linux/$arch: the index entry's annotations: $(jq -c .annotations <<< "$entry")"
  manifest=$(cat "$(blob "$(jq -r .digest <<< "$entry")")")
  has_meta .annotations "$manifest" || fail "linux/$arch: the manifest's annotations: $(jq -c .annotations <<< "$manifest")"
  config=$(cat "$(blob "$(jq -r .config.digest <<< "$manifest")")")
  has_meta .config.Labels "$config" || fail "linux/$arch: the config's labels: $(jq -c .config.Labels <<< "$config")"
  [ "$(jq -c '[.config.User, .config.Entrypoint, .os, .architecture, .variant]' <<< "$config")" \
    = "[\"65532:65532\",[\"/sidecar-wait\"],\"linux\",\"$arch\",$([ "$arch" = arm64 ] && echo '"v8"' || echo null)]" ] \
    || fail "linux/$arch: the config: $(jq -c '{User: .config.User, Entrypoint: .config.Entrypoint, os, architecture, variant}' <<< "$config")"
  [ "$(jq '.layers | length' <<< "$manifest")" -eq 1 ] || fail "linux/$arch: not one layer: $manifest"
  layer=$(blob "$(jq -r '.layers[0].digest' <<< "$manifest")")
  files=$(tar -tzf "$layer" | sed 's|^\./||' | grep -v '/$' | sort | tr '\n' ' ')
  [ "$files" = "LICENSE THIRD-PARTY-NOTICES.txt etc/group etc/passwd sidecar-wait sidecar-wait.cdx.json " ] \
    || fail "linux/$arch: the layer holds $files"
  prefix=$(tar -tzf "$layer" | grep -m1 -o '^\./' || true)  # members named ./x or x, as the builder writes them
  member() { tar -xzOf "$layer" "$prefix$1"; }
  held() { member "$1" | sha256sum | cut -c1-64; }
  tested=$(sha256sum "${binary[$arch]}" | cut -c1-64)
  [ "$(held sidecar-wait)" = "$tested" ] || fail "linux/$arch: the image's binary is not the one tested (${binary[$arch]}, $tested)"
  [ "$(held sidecar-wait.cdx.json)" = "$(sha256sum < "${build[$arch]}/sidecar-wait.cdx.json" | cut -c1-64)" ] \
    || fail "linux/$arch: the image's SBOM is not ${build[$arch]}/sidecar-wait.cdx.json"
  sbom=$(member sidecar-wait.cdx.json)
  [ "$(jq -r .metadata.component.version <<< "$sbom")" = "$version" ] || fail "linux/$arch: the SBOM's version is not $version"
  [ "$(jq -r '.metadata.component.hashes[0].content' <<< "$sbom")" = "$tested" ] || fail "linux/$arch: the SBOM describes another binary"
  member etc/passwd | grep -qx 'nonroot:x:65532:65532:nonroot:/:/sbin/nologin' \
    || fail "linux/$arch: /etc/passwd has no 65532:65532 entry"
  echo "image.sh: linux/$arch: sidecar-wait sha256 $tested, as tested, with its SBOM ($(jq '.components | length' <<< "$sbom") components) and notices; user 65532:65532; labelled $version"
done

# --- what it does, each platform picked from the index as a node's runtime picks it --------------------------------
run=(podman "${store[@]}" --runtime runc run --network=none --cap-drop=all --security-opt no-new-privileges
  --ulimit nofile=1024:1024 --ulimit nproc=1024:1024)
trap 'podman "${store[@]}" rm -f -a >/dev/null 2>&1 || true' EXIT
for arch in amd64 arm64; do
  platform=linux/$arch && [ "$arch" = amd64 ] || platform=linux/arm64/v8
  said=$("${run[@]}" --rm --platform "$platform" "oci:$root/$out/oci" --version 2>&1 | tail -1)
  grep -q "^sidecar-wait $version (commit .*, linux/$arch, native)$" <<< "$said" || fail "linux/$arch --version: $said"
  # As the image says (USER 65532:65532), and as a kubelet starts it: the uid alone, the group from /etc/passwd
  for user in "" 65532; do
    container=$("${run[@]}" -d ${user:+--user "$user"} --platform "$platform" "oci:$root/$out/oci" \
      wait --url tcp://127.0.0.1:1 --timeout 60s 2>/dev/null | tail -1)
    pid=$(podman "${store[@]}" inspect --format '{{.State.Pid}}' "$container")
    status=$(cat "/proc/$pid/status" 2>/dev/null) && [ "$pid" -gt 0 ] \
      || fail "linux/$arch: the wait is not running: $(podman "${store[@]}" logs "$container" 2>&1 | tail -3)"
    podman "${store[@]}" rm -f "$container" >/dev/null
    how=${user:+"--user $user"} && how=${how:-"the image's USER"}
    grep -qP '^Uid:\t65532\t65532\t65532\t65532$' <<< "$status" || fail "linux/$arch ($how) runs as $(grep ^Uid <<< "$status")"
    grep -qP '^Gid:\t65532\t65532\t65532\t65532$' <<< "$status" || fail "linux/$arch ($how) runs as $(grep ^Gid <<< "$status")"
    for set in CapInh CapPrm CapEff CapAmb; do
      grep -qP "^$set:\t0{16}$" <<< "$status" || fail "linux/$arch has capabilities: $(grep "^$set" <<< "$status")"
    done
  done
  echo "image.sh: linux/$arch: runs (${said#sidecar-wait }) as uid and gid 65532 with no capability, also from the uid alone"
done

# --- beside the image: the release's files and their checksums -----------------------------------------------------
for arch in amd64 arm64; do
  cp "${binary[$arch]}" "$out/sidecar-wait-$version-linux-$arch"
  cp "${build[$arch]}/sidecar-wait.cdx.json" "$out/sidecar-wait-$version-linux-$arch.cdx.json"
done
(cd "$out" && sha256sum "sidecar-wait-$version.oci.tar" sidecar-wait-"$version"-linux-* > SHA256SUMS && sha256sum --quiet -c SHA256SUMS) \
  || fail "$out/SHA256SUMS does not check"
echo "image.sh: $out/sidecar-wait-$version.oci.tar: one OCI image index, linux/amd64 and linux/arm64/v8, tagged $version; SHA256SUMS beside it"
