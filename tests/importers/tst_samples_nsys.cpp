// The real Nsight Systems export of ../shared/samples (CloverLeaf on an A100, nsys 2024.5, no NVTX):
// every kernel, memcpy, CUDA API call and synchronization imported, with the counts, ns durations and
// epoch start times that sqlite3 queries of the export itself give; launch → GPU work flows for
// exactly the correlation ids both tables share; the export left byte-identical. Skips when the
// samples are absent.

#include "models/store/foreign_database.h"
#include "tests/importers/import_test_support.h"
#include "tests/test_support.h"

#include <QCryptographicHash>
#include <QFile>
#include <QtTest>

using namespace stepscope;
namespace fs = std::filesystem;

namespace {

QStringList exportRows(const fs::path &file, const std::string &sql) {
    const ForeignDatabase db = ForeignDatabase::open(file, ForeignDatabase::Mode::ReadOnly);
    QStringList out;
    SqliteStatement st(db.db(), sql);
    while (st.step()) {
        QStringList cols;
        for (int c = 0; c < st.columnCount(); ++c)
            cols << (st.columnIsNull(c) ? QStringLiteral("NULL") : QString::fromStdString(st.columnText(c)));
        out << cols.join('|');
    }
    return out;
}

QByteArray sha(const fs::path &file) {
    QFile f(QString::fromStdString(file.string()));
    return f.open(QIODevice::ReadOnly) ? QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256) : QByteArray();
}

} // namespace

class TstSamplesNsys : public QObject {
    Q_OBJECT
private slots:
    void cloverleafExport() {
        STEPSCOPE_REQUIRE_SAMPLES(samples);
        const fs::path file = samples / "nsys/perlmutter-cloverleaf-cuda.sqlite";
        const QByteArray before = sha(file);
        const auto s = test::importPaths({file});
        QCOMPARE(sha(file), before);
        QVERIFY(!fs::exists(file.string() + "-journal") && !fs::exists(file.string() + "-wal"));
        QCOMPARE(s.summary.sources.size(), size_t(1));
        QCOMPARE(QString::fromStdString(s.summary.sources[0].format), QString("nsys_sqlite"));
        QCOMPARE(int(s.summary.sources[0].status), int(SourceStatus::Ok));
        const auto rows = [&](const std::string &sql) { return test::queryRows(*s.store, sql); };
        const std::string epoch = "(SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME)";

        QCOMPARE(rows("SELECT time_base_ns, device, host FROM run"),
                 exportRows(file, "SELECT utcEpochNs, (SELECT name FROM TARGET_INFO_GPU WHERE id = 0), "
                                  "(SELECT value FROM TARGET_INFO_SYSTEM_ENV WHERE name = 'Hostname') "
                                  "FROM TARGET_INFO_SESSION_START_TIME"));
        // Kernels: count, total ns, first start and last end on the epoch clock, per device and stream.
        const QStringList kernels = exportRows(file, "SELECT deviceId, 'stream ' || streamId, count(*), sum(end - start), "
                                                     "min(start) + " + epoch + ", max(end) + " + epoch +
                                                         " FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY 1, 2");
        QCOMPARE(kernels.size(), 1);
        QVERIFY(kernels[0].startsWith("0|stream 7|1312|"));
        QCOMPARE(rows("SELECT device, track, count(*), sum(dur_ns), min(start_ns), max(start_ns + dur_ns) FROM v_slice "
                      "WHERE category = 'kernel' GROUP BY 1, 2"),
                 kernels);
        // Kernel names are the demangled names.
        QCOMPARE(rows("SELECT name, count(*) FROM v_slice WHERE category = 'kernel' GROUP BY 1 ORDER BY 1"),
                 exportRows(file, "SELECT s.value, count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s "
                                  "ON s.id = k.demangledName GROUP BY 1 ORDER BY 1"));
        // Memcpys: Kineto's names, per copy kind; bytes in args.
        QCOMPARE(rows("SELECT n.text, count(*), sum(s.dur_ns), sum(json_extract(s.args, '$.bytes')) FROM slice s "
                      "JOIN string n ON n.id = s.name_id JOIN string c ON c.id = s.category_id "
                      "WHERE c.text = 'gpu_memcpy' GROUP BY 1 ORDER BY 1"),
                 QStringList({"Memcpy DtoH (Device -> Pageable)|25|" +
                                  exportRows(file, "SELECT sum(end - start) || '|' || sum(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 2").at(0),
                              "Memcpy HtoD (Pageable -> Device)|254|" +
                                  exportRows(file, "SELECT sum(end - start) || '|' || sum(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 1").at(0)}));
        // CUDA runtime calls by name, without nsys's _vNNNN suffix, on the thread ThreadNames names.
        QCOMPARE(rows("SELECT track, name, count(*), sum(dur_ns) FROM v_slice WHERE category = 'cuda_runtime' GROUP BY 1, 2 ORDER BY 2"),
                 exportRows(file, "SELECT t.value, rtrim(rtrim(s.value, '0123456789'), '_v'), count(*), sum(r.end - r.start) "
                                  "FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId "
                                  "JOIN ThreadNames n ON n.globalTid = r.globalTid JOIN StringIds t ON t.id = n.nameId "
                                  "GROUP BY 1, 2 ORDER BY 2"));
        // Synchronization records: all 1312 on the host thread, each inside the call that waited.
        QCOMPARE(rows("SELECT track_kind, count(*), min(depth) FROM v_slice WHERE category = 'cuda_sync' GROUP BY 1"),
                 QStringList({"host_thread|" + exportRows(file, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION").at(0) + "|1"}));
        QCOMPARE(rows("SELECT count(*) FROM v_slice WHERE category = 'osrt'"),
                 exportRows(file, "SELECT count(*) FROM OSRT_API"));
        // A flow for each kernel or memcpy whose correlation id a runtime call has.
        QCOMPARE(rows("SELECT count(*) FROM flow"),
                 exportRows(file, "SELECT (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE correlationId IN "
                                  "(SELECT correlationId FROM CUPTI_ACTIVITY_KIND_RUNTIME)) + (SELECT count(*) FROM "
                                  "CUPTI_ACTIVITY_KIND_MEMCPY WHERE correlationId IN (SELECT correlationId FROM "
                                  "CUPTI_ACTIVITY_KIND_RUNTIME))"));
        // Threads by their ThreadNames name, two of one name told apart by TID; the process's own rows.
        QCOMPARE(rows("SELECT name FROM track WHERE kind = 'host_thread' ORDER BY name"),
                 QStringList({"cuda-EvtHandlr [1701906]", "cuda-EvtHandlr [1701908]", "cuda-cloverleaf",
                              "cuda-cloverleaf (process)"}));
        // No NVTX in this export: one whole-trace step, and the log says which tables were absent.
        QCOMPARE(rows("SELECT count(*) FROM v_step"), QStringList({"0"}));
        const QString log = test::importLog(*s.store);
        QVERIFY(log.contains("info|missing_table|NVTX_EVENTS|"));
        QVERIFY(log.contains("info|missing_table|CUPTI_ACTIVITY_KIND_MEMSET|"));
    }
};

QTEST_GUILESS_MAIN(TstSamplesNsys)
#include "tst_samples_nsys.moc"
