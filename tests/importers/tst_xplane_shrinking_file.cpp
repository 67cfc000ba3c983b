// An XPlane file truncated or replaced while it is being imported (a profiler still writing it, a
// sync tool replacing it) is a clean error or a partial import naming the file, never a signal: the
// importer reads the file in pieces instead of mapping it (a mapped file that shrinks raises SIGBUS
// on the next page touched). XPlaneImporter::afterSizeForTest truncates the file between the moment
// its size is taken and the moment its bytes are read.

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

// A host plane with three events, then a GPU plane with 50,000 kernels (about 600 kB, many pages).
std::string twoPlanes() {
    XSpace space;
    XPlane &host = *space.add_planes();
    host.set_id(1);
    host.set_name("/host:CPU");
    (*host.mutable_event_metadata())[1].set_id(1);
    (*host.mutable_event_metadata())[1].set_name("op");
    XLine &py = *host.add_lines();
    py.set_id(100);
    py.set_name("python");
    py.set_timestamp_ns(1000);
    for (int i = 0; i < 3; ++i) {
        XEvent &e = *py.add_events();
        e.set_metadata_id(1);
        e.set_offset_ps(i * 10'000'000);
        e.set_duration_ps(5'000'000);
    }
    XPlane &gpu = *space.add_planes();
    gpu.set_id(2);
    gpu.set_name("/device:GPU:0");
    (*gpu.mutable_event_metadata())[1].set_id(1);
    (*gpu.mutable_event_metadata())[1].set_name("kernel");
    XLine &stream = *gpu.add_lines();
    stream.set_id(7);
    stream.set_name("Stream #7(Kernel)");
    stream.set_timestamp_ns(1000);
    for (int i = 0; i < 50'000; ++i) {
        XEvent &e = *stream.add_events();
        e.set_metadata_id(1);
        e.set_offset_ps(int64_t(i) * 2'000'000);
        e.set_duration_ps(1'000'000);
    }
    return space.SerializeAsString();
}

struct Hook {
    explicit Hook(std::function<void(const fs::path &)> f) { XPlaneImporter::afterSizeForTest = std::move(f); }
    ~Hook() { XPlaneImporter::afterSizeForTest = nullptr; }
};

} // namespace

class TstXPlaneShrinkingFile : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::string m_bytes = twoPlanes();

    fs::path write(const QString &name) {
        const fs::path file = m_dir.filePath(name).toStdString();
        std::ofstream(file, std::ios::binary) << m_bytes;
        return file;
    }

private slots:
    void truncatedWhileReadIsAPartialImport() {
        const fs::path file = write("cut.xplane.pb");
        const auto keep = std::uintmax_t(m_bytes.size() / 2);  // inside the GPU plane
        Hook hook([&](const fs::path &f) { fs::resize_file(f, keep); });
        XPlaneImporter imp;
        const test::ImportedFile r = test::importFile(imp, file);
        QCOMPARE(int(r.result.status), int(SourceStatus::Partial));
        QCOMPARE(r.result.events, int64_t(3));  // the host plane, complete before the cut
        const QString message = QString::fromStdString(r.result.message);
        QVERIFY2(message.contains("cut.xplane.pb") && message.contains("shrank from " + QString::number(m_bytes.size()) +
                                                                       " to " + QString::number(keep) + " bytes"),
                 qPrintable(message));
        const QString log = test::importLog(*r.store);
        QVERIFY2(log.contains("error|read_error||") && log.contains("error|malformed_protobuf|byte "), qPrintable(log));
    }

    void emptiedWhileReadFailsWithTheReason() {
        const fs::path file = write("gone.xplane.pb");
        Hook hook([](const fs::path &f) { fs::resize_file(f, 0); });
        XPlaneImporter imp;
        const test::ImportedFile r = test::importFile(imp, file);
        QCOMPARE(int(r.result.status), int(SourceStatus::Failed));
        const QString message = QString::fromStdString(r.result.message);
        QVERIFY2(message.contains("gone.xplane.pb") && message.contains("to 0 bytes while being read"), qPrintable(message));
    }

    void replacedWhileReadImportsWhatWasOpened() {
        // A new file renamed over the path: the open file is still the old one, read whole.
        const fs::path file = write("swap.xplane.pb");
        Hook hook([&](const fs::path &f) {
            const fs::path other = f.string() + ".new";
            std::ofstream(other, std::ios::binary) << "not a profile";
            fs::rename(other, f);
        });
        XPlaneImporter imp;
        const test::ImportedFile r = test::importFile(imp, file);
        QCOMPARE(int(r.result.status), int(SourceStatus::Ok));
        QCOMPARE(r.result.events, int64_t(50'003));
    }
};

QTEST_GUILESS_MAIN(TstXPlaneShrinkingFile)
#include "tst_xplane_shrinking_file.moc"
