# The sidecar-wait image: the native binary alone, on scratch. ENTRYPOINT is the binary, so
#   docker build -t sidecar-wait:0.1.0 .
#   docker run --rm sidecar-wait:0.1.0 --version
# In a pod it is used as an init container that copies itself into a shared emptyDir:
#   command: ["/sidecar-wait", "install", "/shared"]   (see examples/kubernetes/install-init-container.yaml)
#
# x86-64 is the default: fully static against musl. Elsewhere (arm64), GraalVM has no musl toolchain; link
# all but glibc statically and run on a glibc base:
#   docker build --build-arg NATIVE_BUILDER=ghcr.io/graalvm/native-image-community:25.0.2 \
#                --build-arg LINKING=--static-nolibc --build-arg RUNTIME=gcr.io/distroless/base-debian12 .
#
# The builders are pinned by tag (GraalVM for JDK 25, which -Os needs); pin them by digest in your own
# registry for reproducible builds. No `# syntax=` line: nothing here needs a BuildKit frontend from Docker Hub,
# so mirror-only and air-gapped builders build it as it is.
#
# The image runs as uid and gid 65532, not root, so a pod with runAsNonRoot: true needs no runAsUser for it; `install`
# only writes into the shared volume (an emptyDir is world-writable, or group-writable with fsGroup). Beside the
# binary, /sidecar-wait.cdx.json is the CycloneDX SBOM of what it is built from (the jar's build writes it).
ARG JAR_BUILDER=maven:3.9.9-eclipse-temurin-17
ARG NATIVE_BUILDER=ghcr.io/graalvm/native-image-community:25.0.2-muslib
ARG RUNTIME=scratch

FROM ${JAR_BUILDER} AS jar
WORKDIR /src
COPY pom.xml ./
COPY native native
COPY src/main src/main
RUN mvn -B -q package -Dmaven.test.skip=true

FROM ${NATIVE_BUILDER} AS native
ARG LINKING="--static --libc=musl"
WORKDIR /build
COPY --from=jar /src/target/sidecar-wait.jar ./
# The common arguments come from the jar (native/native-image.properties); only the linking is added here.
RUN native-image ${LINKING} -jar sidecar-wait.jar -o sidecar-wait && ./sidecar-wait --version

FROM ${RUNTIME}
COPY --from=native /build/sidecar-wait /sidecar-wait
COPY --from=jar /src/target/sidecar-wait.cdx.json /sidecar-wait.cdx.json
USER 65532:65532
ENTRYPOINT ["/sidecar-wait"]
