# The sidecar-wait image: the native binary alone, on scratch, for linux/amd64 and linux/arm64 as one image index.
# It is assembled from the binaries CI built and tested, never built again (GraalVM's builds are not reproducible,
# oracle/graal#291): scripts/image.sh lays them out as the build context (linux/amd64/sidecar-wait,
# linux/arm64/sidecar-wait, sidecar-wait.cdx.json) and runs
#   buildah build --platform linux/amd64,linux/arm64 --manifest sidecar-wait:VERSION -f Dockerfile target/image/context
# then checks the result (docs/native.md, "The image"). Any builder that sets TARGETOS and TARGETARCH per platform
# (buildah, podman, docker buildx) makes the same image from that context; nothing is pulled, so mirror-only and
# air-gapped builders build it as it is.
#
# In a pod it is used as an init container that copies itself into a shared emptyDir, the node's runtime picking the
# image of its own architecture from the index:
#   command: ["/sidecar-wait", "install", "/shared"]   (see examples/kubernetes/install-init-container.yaml)
#
# The image runs as uid and gid 65532, not root, so a pod with runAsNonRoot: true needs no runAsUser for it; `install`
# only writes into the shared volume (an emptyDir is world-writable, or group-writable with fsGroup). Beside the
# binary, /sidecar-wait.cdx.json is the CycloneDX SBOM of what it is built from (the jar's build writes it).
FROM scratch
ARG TARGETOS
ARG TARGETARCH
COPY --chmod=0755 ${TARGETOS}/${TARGETARCH}/sidecar-wait /sidecar-wait
COPY --chmod=0644 sidecar-wait.cdx.json /sidecar-wait.cdx.json
USER 65532:65532
ENTRYPOINT ["/sidecar-wait"]
