// XPlaneLineWriter streams a line whose events already come in nesting order and nests any other
// line with SliceNester from its events' times, decoding each event afterwards in nesting order:
// both ways must give the same rows, args included. The same events are imported once in order
// (streamed) and once shuffled (nested), and a line where an event overlaps another without nesting
// goes to an overflow row with its warning, as SliceNester decides.

#include "importers/xplane/xplane.pb.h"
#include "importers/xplane/xplane_importer.h"
#include "tests/importers/import_test_support.h"
#include "tests/test_support.h"

#include <QtTest>

#include <fstream>

using namespace stepscope;
using namespace stepscope::xplane_wire;
namespace fs = std::filesystem;

namespace {

struct Ev {
    int64_t meta, offPs, durPs;
};

// One host plane, one line, events in the given order; names e1..eN by metadata id.
std::string space(const std::vector<Ev> &events) {
    XSpace s;
    XPlane &p = *s.add_planes();
    p.set_id(1);
    p.set_name("/host:CPU");
    for (const Ev &e : events) {
        XEventMetadata &m = (*p.mutable_event_metadata())[e.meta];
        m.set_id(e.meta);
        m.set_name("e" + std::to_string(e.meta));
    }
    XStatMetadata &k = (*p.mutable_stat_metadata())[1];
    k.set_id(1);
    k.set_name("k");
    XLine &l = *p.add_lines();
    l.set_id(7);
    l.set_name("python");
    l.set_timestamp_ns(1000);
    for (const Ev &e : events) {
        XEvent &x = *l.add_events();
        x.set_metadata_id(e.meta);
        x.set_offset_ps(e.offPs);
        x.set_duration_ps(e.durPs);
        XStat &stat = *x.add_stats();  // each event's own args
        stat.set_metadata_id(1);
        stat.set_int64_value(e.meta * 10);
    }
    return s.SerializeAsString();
}

QStringList importRows(const QTemporaryDir &dir, const std::string &name, const std::string &bytes, QString *log = nullptr) {
    const fs::path file = fs::path(dir.path().toStdString()) / name;
    std::ofstream(file, std::ios::binary) << bytes;
    XPlaneImporter imp;
    const auto s = test::importFile(imp, file);
    if (log) *log = test::importLog(*s.store);
    // Parent by name, so ids (which follow the write order) do not matter.
    return test::queryRows(*s.store, "SELECT n.text, c.start_ns, c.dur_ns, c.depth, coalesce(pn.text, '-'), c.args FROM slice c "
                                     "JOIN string n ON n.id = c.name_id LEFT JOIN slice p ON p.id = c.parent_id "
                                     "LEFT JOIN string pn ON pn.id = p.name_id ORDER BY c.start_ns, c.dur_ns DESC, n.text");
}

} // namespace

class TstXPlaneLineOrder : public QObject {
    Q_OBJECT
private slots:
    void streamedAndBufferedLinesAgree() {
        // A ⊃ (B ⊃ C), D after A, E zero-length at D's end, F and G with the same start (longer first).
        const std::vector<Ev> ordered = {{1, 0, 10'000'000}, {2, 2'000'000, 5'000'000}, {3, 3'000'000, 1'000'000},
                                         {4, 10'000'000, 4'000'000}, {5, 14'000'000, 0},
                                         {6, 20'000'000, 3'000'000}, {7, 20'000'000, 1'000'000}};
        std::vector<Ev> shuffled = {ordered[6], ordered[2], ordered[4], ordered[0], ordered[5], ordered[3], ordered[1]};
        QTemporaryDir dir;
        const QStringList streamed = importRows(dir, "a.xplane.pb", space(ordered));
        const QStringList buffered = importRows(dir, "b.xplane.pb", space(shuffled));
        QCOMPARE(streamed.size(), int(ordered.size()));
        QCOMPARE(streamed, buffered);
        QVERIFY(streamed.contains("e3|4000|1000|2|e2|{\"k\":30}"));  // nested two deep under e1 → e2
        QVERIFY(streamed.contains("e7|21000|1000|1|e6|{\"k\":70}"));  // same start: the shorter inside the longer
    }

    void overlapWithoutNestingIsAnOverflowRow() {
        // B starts inside A and ends after it: not streamable, SliceNester puts B on an overflow row.
        QTemporaryDir dir;
        QString log;
        const QStringList r = importRows(dir, "c.xplane.pb", space({{1, 0, 10'000'000}, {2, 5'000'000, 10'000'000}}), &log);
        QCOMPARE(r.size(), 2);
        QVERIFY2(r[1].startsWith("e2|6000|10000|") && r[1].endsWith("|-|{\"k\":20}") && !r[1].contains("|0|-"),
                 qPrintable(r.join(", ")));
        QVERIFY2(log.contains("warning|overlapping_slices||"), qPrintable(log));
    }
};

QTEST_GUILESS_MAIN(TstXPlaneLineOrder)
#include "tst_xplane_line_order.moc"
