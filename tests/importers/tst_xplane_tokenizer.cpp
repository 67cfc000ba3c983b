// XPlaneTokenizer on its own: XSpace bytes built here with the generated classes, walked container by
// container (space → planes → lines → events) without materialising them; the headers, spans and
// event times it reports, early stops, and the offset and reason of the first malformed byte.

#include "importers/xplane/xplane.pb.h"
#include "importers/xplane/xplane_tokenizer.h"

#include <QtTest>

#include <string>
#include <vector>

using namespace stepscope;
namespace wire = stepscope::xplane_wire;

namespace {
// A host plane with one line of three events (one aggregated) and a device plane with an empty line.
wire::XSpace twoPlanes() {
    wire::XSpace space;
    space.add_hostnames("worker-0");
    space.add_errors("profiler error text");
    wire::XPlane *host = space.add_planes();
    host->set_id(7);
    host->set_name("/host:CPU");
    (*host->mutable_event_metadata())[1].set_name("MatMul");
    wire::XLine *line = host->add_lines();
    line->set_id(3);
    line->set_display_id(4);
    line->set_name("python");
    line->set_display_name("Python");
    line->set_timestamp_ns(1000);
    line->set_duration_ps(9000);
    for (int i = 0; i < 2; ++i) {
        wire::XEvent *e = line->add_events();
        e->set_metadata_id(1);
        e->set_offset_ps(1000 * (i + 1));
        e->set_duration_ps(500);
    }
    wire::XEvent *aggregated = line->add_events();
    aggregated->set_metadata_id(1);
    aggregated->set_num_occurrences(4);
    wire::XPlane *device = space.add_planes();
    device->set_name("/device:GPU:0");
    device->add_lines()->set_name("empty");
    return space;
}

struct Walk {
    std::string bytes;
    XPlaneTokenizer tokenizer;
    explicit Walk(std::string b)
        : bytes(std::move(b)), tokenizer(reinterpret_cast<const uint8_t *>(bytes.data()), int64_t(bytes.size())) {}
};
} // namespace

class TestXPlaneTokenizer : public QObject {
    Q_OBJECT
private slots:
    void spaceHeaderAndPlanes() {
        Walk w(twoPlanes().SerializeAsString());
        XSpaceHeader space;
        QVERIFY(w.tokenizer.readSpace(space));
        QCOMPARE(space.planes.size(), size_t(2));
        QCOMPARE(space.hostnames, std::vector<std::string>({"worker-0"}));
        QCOMPARE(space.errors, std::vector<std::string>({"profiler error text"}));
        XPlaneHeader host;
        QVERIFY(w.tokenizer.readPlane(space.planes[0], host));
        QCOMPARE(host.id, int64_t(7));
        QCOMPARE(host.name, std::string("/host:CPU"));
        QCOMPARE(host.lines.size(), size_t(1));
        QCOMPARE(host.eventMetadata.size(), size_t(1));
        // A plane span lies inside the file, after the space's own bytes began.
        QVERIFY(space.planes[1].offset > space.planes[0].offset);
        QVERIFY(space.planes[1].offset + space.planes[1].size <= int64_t(w.bytes.size()));
        XPlaneHeader device;
        QVERIFY(w.tokenizer.readPlane(space.planes[1], device));
        QCOMPARE(device.name, std::string("/device:GPU:0"));
        QVERIFY(!w.tokenizer.error().failed());
    }

    void lineHeaderAndEvents() {
        Walk w(twoPlanes().SerializeAsString());
        XSpaceHeader space;
        XPlaneHeader host;
        QVERIFY(w.tokenizer.readSpace(space) && w.tokenizer.readPlane(space.planes[0], host));
        XLineHeader line;
        QVERIFY(w.tokenizer.readLine(host.lines[0], line));
        QCOMPARE(line.id, int64_t(3));
        QCOMPARE(line.displayId, int64_t(4));
        QCOMPARE(line.name, std::string("python"));
        QCOMPARE(line.displayName, std::string("Python"));
        QCOMPARE(line.timestampNs, int64_t(1000));
        QCOMPARE(line.durationPs, int64_t(9000));
        QCOMPARE(line.eventCount, int64_t(3));

        std::vector<int64_t> offsets;
        wire::XEvent scratch;
        QVERIFY(w.tokenizer.forEachEvent(host.lines[0], scratch, [&](const wire::XEvent &e, int64_t) {
            offsets.push_back(e.has_num_occurrences() ? -e.num_occurrences() : e.offset_ps());
            return true;
        }));
        QCOMPARE(offsets, std::vector<int64_t>({1000, 2000, -4}));

        std::vector<std::pair<int64_t, bool>> timings;
        QVERIFY(w.tokenizer.forEachEventTiming(host.lines[0], [&](const XEventTiming &t) {
            timings.emplace_back(t.aggregated ? 0 : t.offsetPs + t.durationPs, t.aggregated);
            return true;
        }));
        QCOMPARE(timings, (std::vector<std::pair<int64_t, bool>>{{1500, false}, {2500, false}, {0, true}}));
    }

    void callbackStopsTheWalk() {
        Walk w(twoPlanes().SerializeAsString());
        XSpaceHeader space;
        XPlaneHeader host;
        QVERIFY(w.tokenizer.readSpace(space) && w.tokenizer.readPlane(space.planes[0], host));
        int seen = 0;
        wire::XEvent scratch;
        // A stop asked for by the caller is no failure: true, no error, no further event decoded.
        QVERIFY(w.tokenizer.forEachEvent(host.lines[0], scratch, [&](const wire::XEvent &, int64_t) { return ++seen < 1; }));
        QCOMPARE(seen, 1);
        QVERIFY(!w.tokenizer.error().failed());
    }

    void malformedBytesNameTheirOffset() {
        // Field 1 (planes), length-delimited, but wire type 7 inside: no such wire type.
        Walk w(std::string("\x0a\x03\x0f\x01\x02", 5));
        XSpaceHeader space;
        const bool read = w.tokenizer.readSpace(space) && !space.planes.empty();
        XPlaneHeader plane;
        QVERIFY(!read || !w.tokenizer.readPlane(space.planes[0], plane));
        QVERIFY(w.tokenizer.error().failed());
        QVERIFY(w.tokenizer.error().offset >= 0 && w.tokenizer.error().offset < 5);
        QVERIFY(!w.tokenizer.error().reason.empty());
    }

    void lengthPastTheEndIsRefused() {
        // A plane claiming 100 bytes in a 6-byte file: refused, nothing read past the end.
        Walk w(std::string("\x0a\x64" "abcd", 6));
        XSpaceHeader space;
        QVERIFY(!w.tokenizer.readSpace(space));
        QCOMPARE(w.tokenizer.error().offset, int64_t(0));
        QVERIFY(space.planes.empty());
    }
};

QTEST_GUILESS_MAIN(TestXPlaneTokenizer)
#include "tst_xplane_tokenizer.moc"
