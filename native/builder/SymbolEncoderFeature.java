package com.oracle.svm.core.encoder;

import com.oracle.svm.core.feature.AutomaticallyRegisteredFeature;
import com.oracle.svm.core.feature.InternalFeature;
import org.graalvm.nativeimage.ImageSingletons;

/**
 * Stand-in for the builder's class of the same name, put on its module by --patch-module (scripts/native.sh). The
 * builder's registers an encoder that keeps every symbol as it is; this one registers {@link FrameNamesLeftOut},
 * which leaves method and file names out of the frame information: 5,498 method names, 1,826 file names and 524,288
 * bytes of the file (docs/native-journal.md). Without this stand-in (GraalVM's own build) the binary keeps them.
 */
@AutomaticallyRegisteredFeature
public class SymbolEncoderFeature implements InternalFeature {

    @Override
    public void afterRegistration(AfterRegistrationAccess access) {
        registerIdentityStringEncoder();
    }

    protected void registerIdentityStringEncoder() {
        ImageSingletons.add(SymbolEncoder.class, new FrameNamesLeftOut());
    }
}
