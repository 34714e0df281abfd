# The sidecar-wait image: the native binary alone, on scratch, for linux/amd64 and linux/arm64 as one image index.
# It is assembled from the binaries CI built and tested, never built again (GraalVM's builds are not reproducible,
# oracle/graal#291): scripts/image.sh lays them out as the build context (linux/ARCH/ holds each platform's binary, its
# SBOM and its third-party notices; LICENSE and etc/ are the same for both) and runs
#   buildah build --platform linux/amd64,linux/arm64/v8 --manifest sidecar-wait:VERSION --build-arg VERSION=... \
#     -f Dockerfile target/image/context
# then checks the result (docs/native.md, "The image"). Any builder that sets TARGETOS and TARGETARCH per platform
# (buildah, podman, docker buildx) makes the same image from that context; nothing is pulled, so mirror-only and
# air-gapped builders build it as it is.
#
# In a pod it is used as an init container that copies itself into a shared emptyDir, the node's runtime picking the
# image of its own architecture from the index:
#   command: ["/sidecar-wait", "install", "/shared"]   (see examples/kubernetes/install-init-container.yaml)
#
# It runs as 65532:65532 (nonroot), not root, so a pod with runAsNonRoot: true needs no runAsUser for it. A kubelet
# hands the runtime only the uid (kubernetes#61967), and the runtime looks the group up in the image's /etc/passwd:
# the entries here make that 65532 too, where a scratch image without them would run as gid 0. `install` only writes
# into the shared volume (an emptyDir is world-writable, or group-writable with fsGroup). Beside the binary:
# /sidecar-wait.cdx.json, the CycloneDX SBOM of everything the binary holds, /THIRD-PARTY-NOTICES.txt, their licences,
# and /LICENSE (Apache-2.0).
FROM scratch
ARG TARGETOS
ARG TARGETARCH
ARG VERSION
ARG REVISION
ARG CREATED
ARG SOURCE
ARG DESCRIPTION
COPY --chmod=0644 etc/passwd etc/group /etc/
COPY --chmod=0644 LICENSE /LICENSE
COPY --chmod=0755 ${TARGETOS}/${TARGETARCH}/sidecar-wait /sidecar-wait
COPY --chmod=0644 ${TARGETOS}/${TARGETARCH}/sidecar-wait.cdx.json ${TARGETOS}/${TARGETARCH}/THIRD-PARTY-NOTICES.txt /
LABEL org.opencontainers.image.title="sidecar-wait" \
      org.opencontainers.image.description="${DESCRIPTION}" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.licenses="Apache-2.0"
USER 65532:65532
ENTRYPOINT ["/sidecar-wait"]
