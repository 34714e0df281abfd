#!/usr/bin/env bash
# The native binary (target/sidecar-wait; for arm64 target/arm64/sidecar-wait), built on this machine from Maven
# Central and Debian's archive alone: no
# GraalVM distribution. What a distribution ships and the registries do not is made here (docs/native.md, "The CI
# build"):
#   - GraalVM's builder jars (native/builder/pom.xml), run on the JDK 25 under /usr/lib/jvm, with the arguments
#     GraalVM's native-image driver would give it (the driver is not on Maven Central);
#   - the static JDK libraries (libjava, libnet, libnio, libzip): OpenJDK 17's C from Debian's source package, the
#     newest JDK source the archive serves, patched for JDK 25 (native/jdk/) and compiled against JNI headers
#     generated from the JDK 25's own classes;
#   - Substrate VM's own C helpers and the JVM functions the JDK libraries call (native/c/), zlib from Debian's
#     source, Mbed TLS 3.6 from Debian trixie's source with the TLS engine over it (native/tls/), all built with musl's gcc (Debian's musl-tools; for arm64 musl-dev:arm64) for a fully static binary.
# After each build it writes the binary's CycloneDX SBOM and third-party notices beside it in $out (target/native,
# target/native-arm64), from what the build used (native/sbom/BinaryBom.java).
# What it fetched and compiled is kept under $SIDECAR_WAIT_NATIVE_CACHE (default ~/.cache/sidecar-wait-native) and
# reused by the next run, each architecture's apart. It then checks the file (the target's machine, static, stripped),
# prints the build's figures and compares them with the architecture's in native/budget.properties: a file or a
# count of reachable methods more than 1% over the budget fails the build.
#
# Either architecture, from this x86-64 machine: amd64 natively, arm64 with Debian's aarch64 cross toolchain (musl's
# and binutils'), the builder's C queries for the target run under qemu-user (scripts/emulation.sh registers it).
#
#   bash scripts/native.sh                # builds the jar if needed, then target/sidecar-wait (amd64)
#   bash scripts/native.sh --arch arm64   # target/arm64/sidecar-wait, for linux/arm64 nodes
#   SIDECAR_WAIT_NATIVE_OPTIONS="-H:+PrintAnalysisCallTree -H:PrintAnalysisCallTreeType=CSV" bash scripts/native.sh
#                                         # extra builder options, for looking into the image (reports in target/native,
#                                         # target/native-arm64)
#   SIDECAR_WAIT_NATIVE_FLOOR=Hello bash scripts/native.sh
#                                         # one of native/floor/'s programs instead of the tool, into target/floor/Hello-amd64
#                                         # (scripts/floor.sh builds their jar first); SIDECAR_WAIT_NATIVE_PROPERTIES=FILE
#                                         # builds with another native-image.properties than the tool's
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
say() { echo "native.sh: $*" >&2; }

arch=amd64
while [ $# -gt 0 ]; do
  case $1 in
    --arch) [ $# -ge 2 ] || { say "--arch needs a value: amd64 or arm64"; exit 2; }; arch=$2; shift 2 ;;
    --arch=*) arch=${1#--arch=}; shift ;;
    *) say "unknown argument '$1' (usage: native.sh [--arch amd64|arm64])"; exit 2 ;;
  esac
done
[ "$(uname -m)" = x86_64 ] || { say "builds on x86-64 only (Debian's cross toolchain is for an x86-64 host); this is $(uname -m)"; exit 1; }

# Each architecture's toolchain, kernel headers, names and places. The C that differs by architecture is
# native/c/libchelper/<graal arch>/; OpenJDK's C takes its ARCH as the JDK names it.
case $arch in
  amd64)
    cc=musl-gcc ar=ar objcopy="" graal=amd64 jdkarch=amd64 kernel=/usr/include asm=/usr/include/x86_64-linux-gnu/asm
    out=target/native binary=target/sidecar-wait ;;
  arm64)
    cc=aarch64-linux-musl-gcc ar=aarch64-linux-gnu-ar objcopy=aarch64-linux-gnu-objcopy graal=aarch64 jdkarch=aarch64
    kernel=/usr/aarch64-linux-gnu/include asm=/usr/aarch64-linux-gnu/include/asm
    out=target/native-arm64 binary=target/arm64/sidecar-wait ;;
  *) say "--arch: '$arch' is not amd64 or arm64"; exit 2 ;;
esac
floor=${SIDECAR_WAIT_NATIVE_FLOOR:-}
properties=${SIDECAR_WAIT_NATIVE_PROPERTIES:-native/native-image.properties}
[ -f "$properties" ] || { say "SIDECAR_WAIT_NATIVE_PROPERTIES: '$properties' is not a file"; exit 2; }
if [ -n "$floor" ]; then
  [ -f "native/floor/$floor.java" ] || { say "SIDECAR_WAIT_NATIVE_FLOOR: '$floor' is not a program of native/floor/"; exit 2; }
  [ -f target/floor/floor.jar ] || { say "SIDECAR_WAIT_NATIVE_FLOOR: no target/floor/floor.jar (scripts/floor.sh builds it)"; exit 2; }
  out=target/floor/$floor-$arch binary=target/floor/$floor-$arch/$floor
fi

# --- what it needs: Debian's musl toolchain and kernel headers (the target's), a JDK 25 -----------------------------
missing=()
command -v gcc >/dev/null || missing+=(gcc)
command -v git >/dev/null || missing+=(git)
command -v xz >/dev/null || missing+=(xz-utils)
command -v bzip2 >/dev/null || missing+=(bzip2)
command -v readelf >/dev/null || missing+=(binutils)
if [ "$arch" = amd64 ]; then
  command -v musl-gcc >/dev/null || missing+=(musl-tools)
  [ -f /usr/lib/x86_64-linux-musl/libc.a ] || missing+=(musl-dev)
  [ -f /usr/include/linux/fs.h ] || missing+=(linux-libc-dev)
else
  command -v aarch64-linux-musl-gcc >/dev/null || missing+=(musl-dev:arm64)
  command -v aarch64-linux-gnu-objcopy >/dev/null || missing+=(binutils-aarch64-linux-gnu)
  [ -f /usr/aarch64-linux-gnu/include/linux/fs.h ] || missing+=(linux-libc-dev-arm64-cross)
fi
if [ ${#missing[@]} -gt 0 ]; then
  [ "$(id -u)" -eq 0 ] || { say "needs ${missing[*]} (Debian packages); run it as root, or install them first"; exit 1; }
  say "installing ${missing[*]} (apt-get)..."
  [ "$arch" = amd64 ] || dpkg --add-architecture arm64
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
jdk25=""
for jdk in /usr/lib/jvm/*/; do
  major=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$jdk/release" 2>/dev/null || true)
  if [ "$major" = 25 ] && [ -x "$jdk/bin/javac" ] && [ -f "$jdk/lib/src.zip" ]; then jdk25=${jdk%/}; break; fi
done
[ -n "$jdk25" ] || { say "needs a JDK 25 with javac and lib/src.zip under /usr/lib/jvm (these machines have Temurin 25 there)"; exit 1; }
java25=$jdk25/bin/java

graalvm=$(sed -n 's:.*<graalvm.version>\(.*\)</graalvm.version>.*:\1:p' native/builder/pom.xml)
cache=${SIDECAR_WAIT_NATIVE_CACHE:-$HOME/.cache/sidecar-wait-native}
mkdir -p "$cache"

# --- the builder's jars, from Maven Central -------------------------------------------------------------------------
builder=$cache/builder-$graalvm
if [ ! -f "$builder/.done" ]; then
  say "fetching GraalVM $graalvm's builder from Maven Central..."
  rm -rf "$builder"
  mvn -B -q -f native/builder/pom.xml dependency:copy-dependencies -DoutputDirectory="$builder/jars"
  touch "$builder/.done"
fi
# Their POMs too, which name each jar's licence (native/sbom/BinaryBom.java reads them for the SBOM)
if [ ! -f "$builder/poms/.done" ]; then
  mvn -B -q -f native/builder/pom.xml dependency:copy-dependencies -Dmdep.copyPom=true -DoutputDirectory="$builder/poms"
  rm -f "$builder"/poms/*.jar && touch "$builder/poms/.done"
fi

# The builder's methods the image substitutes are still the code the substitutions were written against
"$java25" native/builder/SubstitutedMethods.java "$builder/jars/svm-$graalvm.jar" native/builder/substituted.txt
# The services the image leaves out of its catalogs are the builder's own (native-image.properties)
[ "$properties" != native/native-image.properties ] || "$java25" native/builder/BuilderServices.java "$builder/jars" "$properties"

# --- the C libraries: made once per GraalVM, JDK and native/ sources, then reused -----------------------------------
key=$( (echo "$graalvm $arch"; cat "$jdk25/release"; find native/jdk native/c native/tls -type f | sort | xargs cat
  cat native/builder/CpuFeatureHeaders.java scripts/native.sh) | sha256sum | cut -c1-16)
clib=$cache/clib-$arch-$key
if [ ! -f "$clib/.done" ]; then
  rm -rf "$cache"/clib-"$arch"-*
  find "$cache" -maxdepth 1 -regextype egrep -regex '.*/clib-[0-9a-f]{16}' -exec rm -rf {} +  # before --arch: no arch in the name
  work=$clib/work
  mkdir -p "$work" "$clib/include"

  say "fetching OpenJDK 17 and zlib sources from Debian's archive..."
  # Debian's source index, in a directory of its own: the machine's apt sources are left as they are.
  apt=$cache/apt
  mkdir -p "$apt/lists/partial" "$apt/parts"
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources > "$apt/parts/debian-src.sources"
  else
    sed -n 's/^deb /deb-src /p' /etc/apt/sources.list > "$apt/parts/debian-src.list"
  fi
  apto=(-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$apt/parts" -o Dir::State::Lists="$apt/lists")
  apt-get "${apto[@]}" update -qq
  (cd "$work" && for package in openjdk-17 zlib; do
    # newest first; the archive lists versions whose files it no longer serves, so the next is tried
    fetched=""
    for version in $(apt-cache "${apto[@]}" showsrc "$package" | sed -n 's/^Version: //p' | sort -rV); do
      if apt-get "${apto[@]}" source -qq --download-only "$package=$version" >/dev/null 2>&1; then fetched=$version; break; fi
    done
    [ -n "$fetched" ] || { say "Debian's archive served no $package source"; exit 1; }
    say "$package $fetched"
    echo "debian.$package=$fetched" >> "$clib/sources.properties"  # what the SBOM names
  done)
  # Mbed TLS (the TLS client, tls/MbedTls.java) from trixie's source: bookworm's 2.28 has no TLS 1.3. Its own index,
  # in a directory of its own too.
  trixie=$cache/apt-trixie
  mkdir -p "$trixie/lists/partial" "$trixie/parts"
  echo "deb-src http://deb.debian.org/debian trixie main" > "$trixie/parts/trixie-src.list"
  tapto=(-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$trixie/parts" -o Dir::State::Lists="$trixie/lists")
  apt-get "${tapto[@]}" update -qq
  (cd "$work" && fetched=""
    for version in $(apt-cache "${tapto[@]}" showsrc mbedtls | sed -n 's/^Version: //p' | grep '^3\.6\.' | sort -rV); do
      if apt-get "${tapto[@]}" source -qq --download-only "mbedtls=$version" >/dev/null 2>&1; then fetched=$version; break; fi
    done
    [ -n "$fetched" ] || { say "Debian's archive served no mbedtls 3.6 source (trixie)"; exit 1; }
    say "mbedtls $fetched"
    printf 'debian.mbedtls=%s\ndebian.mbedtls.distro=debian-13\n' "$fetched" >> "$clib/sources.properties")
  tar -xjf "$work"/mbedtls_*.orig.tar.bz2 -C "$work"
  mbedtls=$(echo "$work"/mbedtls-*/)
  mkdir -p "$clib/legal/mbedtls" && cp "$mbedtls/LICENSE" "$clib/legal/mbedtls/LICENSE"
  for patch in "$root"/native/tls/*.patch; do  # each says what it changes and why
    git -C "$mbedtls" apply --whitespace=nowarn "$patch"
  done
  tar -xJf "$work"/openjdk-17_*.orig.tar.xz -C "$work" --wildcards '*/src/java.base/*/native/*' '*/src/hotspot/share/include/*' \
    '*/src/hotspot/os/posix/include/*' '*/LICENSE' '*/ASSEMBLY_EXCEPTION' '*/ADDITIONAL_LICENSE_INFO'
  tar -xjf "$work"/zlib_*.orig.tar.bz2 -C "$work"
  jdk17=$(echo "$work"/openjdk-17-*/)
  # The licence texts of the sources compiled, for the notices shipped beside the binary
  mkdir -p "$clib/legal/openjdk-17" "$clib/legal/zlib"
  cp "$jdk17"/{LICENSE,ASSEMBLY_EXCEPTION,ADDITIONAL_LICENSE_INFO} "$clib/legal/openjdk-17/"
  zlibsrc=$(echo "$work"/zlib-*/)
  if [ -f "$zlibsrc/LICENSE" ]; then cp "$zlibsrc/LICENSE" "$clib/legal/zlib/LICENSE"
  else sed -n '/^Copyright notice:/,$p' "$zlibsrc/README" > "$clib/legal/zlib/LICENSE"; fi
  [ -s "$clib/legal/zlib/LICENSE" ] || { say "zlib's source has no licence text where expected"; exit 1; }
  for patch in "$root"/native/jdk/*.patch; do  # JDK 25's Java side; each other one says what it changes and why
    git -C "$jdk17" apply --whitespace=nowarn "$patch"
  done

  say "generating JNI headers from JDK 25's classes and the CPU-feature headers from the builder..."
  (cd "$work" && "$jdk25/bin/jar" xf "$jdk25/lib/src.zip" java.base)
  # every class with a native method or a @Native constant among those the JDK libraries' C includes headers of
  natives=$(grep -lE '^\s*((public|private|protected|static|final|synchronized) )*native |@Native' \
    "$work"/java.base/java/{io,net,util/zip}/*.java "$work"/java.base/java/lang/*.java "$work"/java.base/java/util/TimeZone.java \
    "$work"/java.base/sun/nio/{ch,fs}/*.java "$work"/java.base/sun/net/spi/*.java "$work"/java.base/jdk/internal/misc/*.java)
  # shellcheck disable=SC2086 # one file per word
  "$jdk25/bin/javac" -h "$clib/jni" -d "$work/classes" --patch-module java.base="$work/java.base" -implicit:none -nowarn \
    -XDignore.symbol.file $natives 2>"$work/javac.log" || { cat "$work/javac.log" >&2; exit 1; }
  "$java25" native/builder/CpuFeatureHeaders.java "$builder"/jars/svm-"$graalvm".jar "$clib/include"
  cp "$jdk25"/include/{jni.h,classfile_constants.h} "$jdk25"/include/linux/jni_md.h "$jdk17"/src/hotspot/os/posix/include/jvm_md.h \
    native/c/include/*.h "$clib/include/"
  # Kernel headers for musl-gcc, which leaves /usr/include (glibc's) out of its path
  mkdir -p "$work/kernel"
  ln -s "$kernel/linux" "$kernel/asm-generic" "$work/kernel/"
  ln -s "$asm" "$work/kernel/asm"

  say "compiling zlib, the JDK libraries and the Substrate VM helpers with $cc..."
  zlib=$(echo "$work"/zlib-*/)
  mkdir -p "$work/obj/z"
  for source in adler32 compress crc32 deflate infback inffast inflate inftrees trees uncompr zutil; do
    "$cc" -c -Os -fPIC -ffunction-sections -fdata-sections -w "$zlib/$source.c" -o "$work/obj/z/$source.o"
  done
  "$ar" rcs "$clib/libz.a" "$work"/obj/z/*.o
  base=$jdk17/src/java.base
  includes=(-I"$clib/jni" -I"$clib/include" -I"$jdk17/src/hotspot/share/include")
  for dir in share unix linux; do
    for lib in libjava libnet libnio libnio/ch libnio/fs libzip include; do
      [ -d "$base/$dir/native/$lib" ] && includes+=(-I"$base/$dir/native/$lib")
    done
  done
  includes+=(-I"$zlib" -idirafter "$work/kernel")
  flags=(-c -Os -fPIC -ffunction-sections -fdata-sections -w -D_GNU_SOURCE -D_REENTRANT -DLINUX -D_LP64=1
    -DSTATIC_BUILD=1 -DARCH="\"$jdkarch\"" -DARCHPROPNAME="\"$jdkarch\"" -DVERSION_STRING='"25"')
  for lib in java net nio zip; do
    mkdir -p "$work/obj/$lib"
    for source in $(sed -n "s/^$lib //p" native/jdk/sources.txt); do
      object=$work/obj/$lib/$(echo "$source" | tr / _).o
      "$cc" "${flags[@]}" -DLIBRARY_NAME="$lib" "${includes[@]}" "$base/$source" -o "$object"
    done
    "$ar" rcs "$clib/lib$lib.a" "$work/obj/$lib"/*.o
  done
  for lib in libchelper jvm swprocess; do
    mkdir -p "$work/obj/$lib"
    for source in native/c/"$lib"/*.c native/c/"$lib"/"$graal"/*.c; do
      [ -f "$source" ] || continue
      "$cc" -c -Os -Wall -Werror -ffunction-sections -fdata-sections -I"$clib/include" "$source" \
        -o "$work/obj/$lib/$(basename "$(dirname "$source")")_$(basename "$source" .c).o"
    done
  done
  "$ar" rcs "$clib/liblibchelper.a" "$work"/obj/libchelper/*.o  # @CLibrary("libchelper") names liblibchelper.a
  "$ar" rcs "$clib/libjvm.a" "$work"/obj/jvm/*.o
  "$ar" rcs "$clib/libswprocess.a" "$work"/obj/swprocess/*.o  # @CLibrary("swprocess"): the supervisor's signals and start
  # Mbed TLS as native/tls/mbedtls_config.h trims it, and the engine over it; unused functions go at link time
  mkdir -p "$work/obj/tls"
  # no unwind tables: nothing unwinds through this C (33 kB of .eh_frame on amd64)
  tlsflags=(-c -Os -ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables -fno-unwind-tables
    -I"$mbedtls/include" -DMBEDTLS_CONFIG_FILE="\"$root/native/tls/mbedtls_config.h\"")
  # the elliptic-curve arithmetic at -O2: nearly all of a handshake's CPU (docs/native-journal.md, The TLS attempts' CPU)
  for source in "$mbedtls"/library/*.c; do
    case $(basename "$source") in bignum.c | bignum_core.c | ecp.c | ecp_curves.c) speed=(-O2) ;; *) speed=() ;; esac
    "$cc" "${tlsflags[@]}" "${speed[@]}" -w "$source" -o "$work/obj/tls/mbedtls_$(basename "$source" .c).o"
  done
  "$cc" "${tlsflags[@]}" -I"$mbedtls/library" -Wall -Werror native/tls/swtls.c -o "$work/obj/tls/swtls.o"
  "$ar" rcs "$clib/libswtls.a" "$work"/obj/tls/*.o  # @CLibrary("swtls")

  "$jdk25/bin/javac" -d "$clib/patch" native/builder/ProgressReporterCHelper.java
  rm -rf "$work"
  touch "$clib/.done"
fi

# --- the image ----------------------------------------------------------------------------------------------------
jar=target/sidecar-wait.jar imagecp=$root/target/sidecar-wait.jar main=dev.sidecarwait.Main
if [ -n "$floor" ]; then
  jar=target/floor/floor.jar imagecp=$root/target/floor/floor.jar:$(cat target/floor/classpath) main=floor.$floor
# (again after a commit too: the jar names its commit in the version line)
elif [ ! -f "$jar" ] || [ ! -f target/sidecar-wait.cdx.xml ] || [ -n "$(find src/main native pom.xml -newer "$jar" -print -quit)" ] \
  || [ "$(git log -1 --format=%ct 2>/dev/null || echo 0)" -gt "$(stat -c %Y "$jar")" ]; then
  say "building the jar (mvn -B -q package -DskipTests)..."
  mvn -B -q package -DskipTests
fi

# The binary's CycloneDX SBOM and third-party notices ($out/sidecar-wait.cdx.json, $out/THIRD-PARTY-NOTICES.txt), from
# what this build used: the Debian sources compiled, the musl linked, the JDK and GraalVM built with (native/sbom/).
bill_of_materials() {
  [ -z "$floor" ] || return 0
  local release=$jdk25/release
  {
    echo "arch=$arch"
    echo "timestamp=$(git log -1 --format=%cI 2>/dev/null || date -u +%FT%TZ)"
    echo "distro=$(. /etc/os-release && echo "$ID-$VERSION_ID")"
    echo "graalvm.version=$graalvm"
    # GraalVM's jars whose code is in the image (the builder's "origins of code area"; BinaryBomTest holds the two to
    # each other): the runtime, the configuration reader, the compiler's snippets and stubs, the SDK
    echo "graalvm.runtime=org.graalvm.nativeimage:svm,org.graalvm.nativeimage:svm-configure,org.graalvm.compiler:compiler,org.graalvm.sdk:nativeimage,org.graalvm.sdk:word,org.graalvm.sdk:collections"
    for key in JAVA_VERSION JAVA_RUNTIME_VERSION IMPLEMENTOR IMPLEMENTOR_VERSION SOURCE_REPO; do
      value=$(sed -n "s/^$key=\"\(.*\)\"$/\1/p" "$release")
      case $key in
        JAVA_VERSION) echo "jdk.version=$value" ;;
        JAVA_RUNTIME_VERSION) echo "jdk.runtime.version=$value" ;;
        IMPLEMENTOR) echo "jdk.implementor=$value" ;;
        IMPLEMENTOR_VERSION) echo "jdk.implementor.version=$value" ;;
        SOURCE_REPO) echo "jdk.source=$value" ;;
      esac
    done
    cat "$clib/sources.properties"
    echo "debian.musl=$(dpkg-query -W -f='${source:Version}' "musl-dev:$arch")"  # the target's: both may be installed
  } > "$out/components.properties"
  rm -rf "$out/legal" && mkdir -p "$out/legal/apache-2.0" "$out/legal/jdk-java.base" "$out/legal/musl"
  cp LICENSE "$out/legal/apache-2.0/LICENSE"
  cp "$jdk25"/legal/java.base/* "$out/legal/jdk-java.base/"
  cp -r "$clib/legal/openjdk-17" "$clib/legal/zlib" "$clib/legal/mbedtls" native/sbom/legal/graalvm "$out/legal/"
  cp "/usr/share/doc/musl-dev/copyright" "$out/legal/musl/copyright"
  "$java25" -cp target/classes native/sbom/BinaryBom.java "$out/components.properties" target/sidecar-wait.cdx.xml "$binary" \
    "$builder/poms" "$out/legal" "$out"
}

# The same jar, builder and C libraries as the binary there was built from: it stands, with its figures.
extra_options=(${SIDECAR_WAIT_NATIVE_OPTIONS:-})
made_from="$arch $(sha256sum "$jar" | cut -c1-64) $graalvm $key $(sha256sum "$properties" native/builder/*.java native/code-order.txt native/heap-order.txt | sha256sum | cut -c1-16) ${extra_options[*]} ${SIDECAR_WAIT_HEAP_MAP:-} $floor $properties"
if [ -x "$binary" ] && [ -f "$out/made-from" ] && [ "$(cat "$out/made-from")" = "$made_from" ]; then
  say "$binary is up to date (made from this jar, builder and C libraries)"
  bill_of_materials
  "$java25" native/builder/BuildFigures.java "$out/build-output.json" "$binary" native/budget.properties \
    "$(sed -n 's/^build.seconds=//p' "$out/figures.txt")" "$arch"
  exit $?
fi

# --- arm64: the target's answers to the builder's C queries (struct layouts, constants), cached -----------------------
# The builder compiles small query programs against the target's headers and reads what they print; for another
# architecture it takes their answers from a cache (-H:CAPCacheDir), made once by running them under qemu-user. The
# answers depend on GraalVM and musl's headers, not on this project's code.
target_jvm=() target_image=() path=$PATH
if [ "$arch" = arm64 ]; then
  target_jvm=(-Dsvm.targetPlatformOS=linux -Dsvm.targetPlatformArch=aarch64)  # what the driver's --target=linux-aarch64 sets
  cap=$cache/cap-arm64-$( (echo "$graalvm"; dpkg-query -W -f='${Version}' musl-dev:arm64) | sha256sum | cut -c1-16)
  if [ -f "$cap/.done" ]; then
    target_image=(-H:+UseCAPCache -H:CAPCacheDir="$cap")
  else
    bash scripts/emulation.sh  # qemu-aarch64 registered with binfmt_misc, or a plain failure saying why
    rm -rf "$cache"/cap-arm64-* && mkdir -p "$cap"
    target_image=(-H:-UseCAPCache -H:+NewCAPCache -H:CAPCacheDir="$cap")
  fi
  # The builder strips the binary with "objcopy" from its PATH; the host's cannot read aarch64 files, and then the
  # builder says nothing and leaves the binary unstripped. The target's objcopy goes first.
  mkdir -p "$cache/bin-arm64" && ln -sf "$(command -v "$objcopy")" "$cache/bin-arm64/objcopy"
  path=$cache/bin-arm64:$PATH
fi

mapfile -t exports < <("$java25" native/builder/BuilderExports.java $(ls "$builder"/jars/*.jar | grep -v /compiler-))
mapfile -t options < <("$java25" native/builder/ImageOptions.java "$properties" --static --libc=musl)
jvm_options=() image_options=()
for line in "${options[@]}"; do
  case $line in
    "jvm "*) jvm_options+=("${line#jvm }") ;;
    "image "*) image_options+=("${line#image }") ;;
  esac
done
modules=$(ls "$builder"/jars/*.jar | grep -v /compiler- | tr '\n' ':')
# The builder's code layouter and heap partition, replaced by ones that put first the methods native/code-order.txt
# and the objects native/heap-order.txt list (what a wait runs and reads), and its symbol encoder, by one that leaves
# method and file names out of the frame information: compiled against the builder once per version of their source.
stand_ins=(native/builder/SortByMethodNameCodeSectionLayouter.java native/builder/ChunkedImageHeapPartition.java
  native/builder/HeapObjectNames.java native/builder/OrderFile.java native/builder/SymbolEncoderFeature.java
  native/builder/FrameNamesLeftOut.java)
layouter=$cache/layouter-$(cat "${stand_ins[@]}" | sha256sum | cut -c1-16)
if [ ! -f "$layouter/.done" ]; then
  rm -rf "$cache"/layouter-*
  "$jdk25/bin/javac" -nowarn -cp "$builder/jars/*" --add-modules jdk.internal.vm.ci \
    --add-exports jdk.internal.vm.ci/jdk.vm.ci.meta=ALL-UNNAMED -d "$layouter" "${stand_ins[@]}"
  touch "$layouter/.done"
fi
# SIDECAR_WAIT_HEAP_MAP=FILE: the builder writes where it placed each object of the heap, by name (scripts/code-order.sh)
heap_map=()
if [ -n "${SIDECAR_WAIT_HEAP_MAP:-}" ]; then
  rm -f "$SIDECAR_WAIT_HEAP_MAP"
  heap_map=(-Dsidecarwait.heapMap="$SIDECAR_WAIT_HEAP_MAP")
fi
rm -rf "$out" && mkdir -p "$out"
say "building $binary for linux/$arch (GraalVM $graalvm's builder on $(basename "$jdk25"); a few minutes)..."
start=$(date +%s)
# The builder's JVM as GraalVM's driver starts it (substratevm/src/com.oracle.svm.driver/.../NativeImage.java:
# prepareImageBuildArgs, completeImageBuild; BuildConfiguration.getBuilderJavaArgs), plus the stand-in reporter.
PATH=$path "$java25" -XX:+UseParallelGC -Xmx3g -Xss10m -XX:+UnlockExperimentalVMOptions -XX:+EnableJVMCI -XX:-UseJVMCICompiler \
  -Djava.awt.headless=true -Dorg.graalvm.version="$graalvm" -Dcom.oracle.graalvm.isaot=true \
  -Djava.system.class.loader=com.oracle.svm.hosted.NativeImageSystemClassLoader \
  -Dorg.graalvm.nativeimage.imagecode=buildtime -Xshare:off \
  -Djdk.internal.lambda.disableEagerInitialization=true -Djdk.internal.lambda.eagerlyInitialize=false \
  -Djava.lang.invoke.InnerClassLambdaMetafactory.initializeLambdas=false \
  -Djava.lang.invoke.MethodHandle.DONT_INLINE_THRESHOLD=-1 -Djava.lang.invoke.MethodHandle.PROFILE_GWT=false \
  "${jvm_options[@]}" "${target_jvm[@]}" "${exports[@]}" \
  --enable-native-access=org.graalvm.nativeimage.builder,ALL-UNNAMED \
  --patch-module org.graalvm.nativeimage.builder="$clib/patch:$layouter" -Dsidecarwait.codeOrder="$root/native/code-order.txt" \
  -Dsidecarwait.heapOrder="$root/native/heap-order.txt" "${heap_map[@]}" \
  --upgrade-module-path "$builder/jars/compiler-$graalvm.jar" --module-path "$modules" \
  -m org.graalvm.nativeimage.builder/com.oracle.svm.hosted.NativeImageGeneratorRunner \
  -imagecp "$imagecp" -H:Path="$root/$out" -H:Name=sidecar-wait -H:Class="$main" \
  -H:ImageBuildID="$(cat /proc/sys/kernel/random/uuid)" -H:CLibraryPath="$clib" -H:CCompilerPath="$(command -v "$cc")" \
  -H:TempDirectory="$root/$out/tmp" -H:BuildOutputJSONFile="$root/$out/build-output.json" \
  "${image_options[@]}" "${target_image[@]}" "${extra_options[@]}" > "$out/build.log" 2>&1 \
  || { tail -60 "$out/build.log" >&2; say "the build failed: $out/build.log"; exit 1; }
rm -rf "$out/tmp"
[ "$arch" = amd64 ] || [ -f "$cap/.done" ] || touch "$cap/.done"

# What was made, checked rather than taken from the log: an ELF for the target's machine, static (no interpreter),
# stripped (no symbol table).
elf=$(readelf -h -l -S "$out/sidecar-wait")
case $arch in amd64) want="Advanced Micro Devices X86-64" ;; arm64) want="AArch64" ;; esac
grep -q "^ *Machine: *$want\$" <<< "$elf" || { say "$out/sidecar-wait is not for $want: $(grep Machine: <<< "$elf")"; exit 1; }
! grep -q INTERP <<< "$elf" || { say "$out/sidecar-wait is not static: it names an interpreter"; exit 1; }
! grep -q '\.symtab' <<< "$elf" || { say "$out/sidecar-wait is not stripped (the builder's objcopy could not read it)"; exit 1; }

mkdir -p "$(dirname "$binary")"
cp "$out/sidecar-wait" "$binary"
echo "$made_from" > "$out/made-from"
bill_of_materials
"$java25" native/builder/BuildFigures.java "$out/build-output.json" "$binary" native/budget.properties \
  "$(( $(date +%s) - start ))" "$arch" > "$out/figures.txt" || { cat "$out/figures.txt"; exit 1; }
cat "$out/figures.txt"
grep -h '^code order:' "$out/build.log" || { say "the builder did not lay the code out in native/code-order.txt's order"; exit 1; }
grep -h '^heap order:' "$out/build.log" || { say "the builder did not lay the heap out in native/heap-order.txt's order"; exit 1; }
