package dev.sidecarwait.grpc;

import static dev.sidecarwait.wire.FuzzedPeer.within;
import static dev.sidecarwait.wire.FuzzedPeer.wire;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * The gRPC room's readers fed hostile bytes, with the property every reader of a peer's bytes holds to
 * ({@link dev.sidecarwait.wire.FuzzedPeer}). Seeds: the bytes grpc-java's health service sent, Envoy's local
 * replies as GrpcHealthCheckTest replays them, and RFC 7541's examples, in
 * src/test/resources/.../GrpcReadersFuzzTestInputs/METHOD/. `mvn verify` runs each target over its seeds
 * and every input that ever failed; scripts/fuzz.sh fuzzes them.
 */
class GrpcReadersFuzzTest {

    /** A health check's answer: the server's HTTP/2 frames with their HPACK blocks and the gRPC message. */
    @FuzzTest(maxDuration = "15s")
    void grpcAnswer(byte[] peer) {
        within(() -> new GrpcHealthCheck().exchange(wire(peer), "orders", 50051, ""));
    }

    /** HPACK on its own, faster than through HTTP/2 frames: header blocks, and Huffman strings. */
    @FuzzTest(maxDuration = "15s")
    void hpackBlock(byte[] block) {
        within(() -> new Hpack().decode(block));
        within(() -> HpackHuffman.decode(block, 0, block.length));
    }
}
