package com.oracle.svm.core.genscavenge;

import com.oracle.svm.core.config.ConfigurationValues;
import com.oracle.svm.core.image.ImageHeapLayouter.ImageHeapLayouterControl;
import com.oracle.svm.core.image.ImageHeapObject;
import com.oracle.svm.core.image.ImageHeapPartition;
import com.oracle.svm.hosted.OrderFile;
import com.oracle.svm.hosted.image.HeapObjectNames;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Queue;
import java.util.TreeMap;

/**
 * Stand-in for the builder's class of the same name, put on its module by --patch-module (scripts/native.sh). The
 * builder fills each 64 KiB chunk of a partition of the image heap with the largest objects that fit, so the objects a
 * wait reads sit apart, and the kernel maps 64 KiB of the file around each first touch (fault-around). This one places
 * first, in their order, the objects native/heap-order.txt names (those a wait, a check and the wrapper touched, by
 * scripts/code-order.sh; named by {@link HeapObjectNames}), then the rest as the builder does. The order changes where
 * objects are, never what they hold. Without the list (the system property sidecarwait.heapOrder unset) it is the
 * builder's layout. With sidecarwait.heapMap set, it appends each object's offset, size and name to that file.
 */
public class ChunkedImageHeapPartition implements ImageHeapPartition {

    private final String name;
    private final boolean writable;
    private final boolean hugeObjects;
    private final int minimumObjectSize;
    private final List<ImageHeapObject> objects = new ArrayList<>();

    Object firstObject;
    Object lastObject;

    long startOffset = -1;
    long endOffset = -1;

    ChunkedImageHeapPartition(String name, boolean writable, boolean hugeObjects) {
        this.name = name;
        this.writable = writable;
        this.hugeObjects = hugeObjects;
        this.minimumObjectSize = ConfigurationValues.getObjectLayout().getMinImageHeapObjectSize();
    }

    void assign(ImageHeapObject object) {
        objects.add(object);
    }

    /** As the builder's, with the listed objects first in a partition of aligned chunks. */
    void layout(ChunkedImageHeapAllocator allocator, ImageHeapLayouterControl control) {
        if (hugeObjects) {
            layoutInUnalignedChunks(allocator, control);
        } else {
            allocator.maybeStartAlignedChunk();
            startOffset = allocator.getPosition();
            layoutInAlignedChunks(allocator, control);
            endOffset = allocator.getPosition();
        }
        writeMap(System.getProperty("sidecarwait.heapMap"));
    }

    private void layoutInUnalignedChunks(ChunkedImageHeapAllocator allocator, ImageHeapLayouterControl control) {
        if (objects.isEmpty()) { // no chunk finished for nothing: the next partition may fill it
            startOffset = allocator.getPosition();
            endOffset = startOffset;
            return;
        }
        allocator.finishAlignedChunk();
        startOffset = allocator.getPosition();
        for (ImageHeapObject object : objects) {
            place(object, allocator.allocateUnalignedChunkForObject(object, writable));
            control.poll();
        }
        endOffset = allocator.getPosition();
    }

    private void layoutInAlignedChunks(ChunkedImageHeapAllocator allocator, ImageHeapLayouterControl control) {
        String order = System.getProperty("sidecarwait.heapOrder");
        Map<String, Integer> rank = OrderFile.ranks(order);
        List<ImageHeapObject> listed = new ArrayList<>();
        NavigableMap<Long, Queue<ImageHeapObject>> rest = new TreeMap<>();
        Map<ImageHeapObject, Integer> placeOf = new IdentityHashMap<>();
        for (ImageHeapObject object : objects) {
            Integer place = rank.isEmpty() ? null : rank.get(HeapObjectNames.of(object));
            if (place != null) {
                listed.add(object);
                placeOf.put(object, place);
            } else {
                rest.computeIfAbsent(object.getSize(), size -> new ArrayDeque<>()).add(object);
            }
        }
        listed.sort(Comparator.comparing(placeOf::get)); // stable: objects of one name in the builder's order
        for (ImageHeapObject object : listed) {
            if (allocator.getRemainingBytesInAlignedChunk() < object.getSize()) {
                fillChunk(allocator, rest);
                allocator.startNewAlignedChunk();
                control.poll();
            }
            place(object, allocator.allocateObjectInAlignedChunk(object, writable));
        }
        if (order != null) {
            System.out.println("heap order: " + listed.size() + " of " + objects.size() + " objects of the " + name
                    + " partition placed first");
        }
        while (!rest.isEmpty()) {
            fillChunk(allocator, rest);
            if (!rest.isEmpty()) {
                allocator.startNewAlignedChunk();
                control.poll();
            }
        }
    }

    /** The builder's order: the largest object that fits the chunk, until none does. */
    private void fillChunk(ChunkedImageHeapAllocator allocator, NavigableMap<Long, Queue<ImageHeapObject>> bySize) {
        while (allocator.getRemainingBytesInAlignedChunk() >= minimumObjectSize) {
            Long size = bySize.floorKey(allocator.getRemainingBytesInAlignedChunk());
            if (size == null) {
                return;
            }
            Queue<ImageHeapObject> ofThatSize = bySize.get(size);
            ImageHeapObject object = ofThatSize.remove();
            if (ofThatSize.isEmpty()) {
                bySize.remove(size);
            }
            place(object, allocator.allocateObjectInAlignedChunk(object, writable));
        }
    }

    private void place(ImageHeapObject object, long offset) {
        if (firstObject == null) {
            firstObject = object.getWrapped();
        }
        object.setOffsetInPartition(offset - startOffset);
        lastObject = object.getWrapped();
    }

    private void writeMap(String file) {
        if (file == null) {
            return;
        }
        try (Writer map = Files.newBufferedWriter(Path.of(file), StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND)) {
            for (ImageHeapObject object : objects) {
                map.write(object.getOffset() + " " + object.getSize() + " " + name + " " + HeapObjectNames.of(object) + "\n");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String getName() {
        return name;
    }

    boolean isWritable() {
        return writable;
    }

    boolean usesUnalignedObjects() {
        return hugeObjects;
    }

    @Override
    public long getStartOffset() {
        return startOffset;
    }

    long getEndOffset() {
        return endOffset;
    }

    @Override
    public long getSize() {
        return endOffset - startOffset;
    }

    @Override
    public String toString() {
        return name;
    }
}
