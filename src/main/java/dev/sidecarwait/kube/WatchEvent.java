package dev.sidecarwait.kube;

import dev.sidecarwait.wire.PeerText;
import dev.sidecarwait.wire.ProbeFailure;
import java.util.List;

/**
 * One event of a watch ({"type": ..., "object": ...}), checked: a known type, an object, and for an object's change
 * its name and resourceVersion. An ERROR's object is a Status; a BOOKMARK's carries only its version.
 */
record WatchEvent(String type, JsonFields object, String name, String version) {

    private static final List<String> TYPES = List.of("ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR");

    static WatchEvent of(Object json) throws ProbeFailure {
        JsonFields event = JsonFields.of(json);
        String type = event.at("type").text();
        JsonFields object = event.at("object");
        if (type == null || !TYPES.contains(type) || !(object.raw() instanceof java.util.Map<?, ?>)) {
            throw new ProbeFailure("a watch event from the API server that is none ("
                    + PeerText.shown(String.valueOf(type), 40) + ")");
        }
        String name = object.at("metadata", "name").text();
        String version = object.at("metadata", "resourceVersion").text();
        if (!type.equals("ERROR") && (version == null || name == null && !type.equals("BOOKMARK"))) {
            throw new ProbeFailure("a " + type + " watch event without the object's name or resourceVersion");
        }
        return new WatchEvent(type, object, name, version);
    }
}
