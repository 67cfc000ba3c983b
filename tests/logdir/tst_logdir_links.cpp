// Logdir discovery over links and special files: a file reached twice (symlinked folder, link to a
// file, hard link, named twice) is imported once and the second path is a warning naming both;
// FIFOs, sockets, devices, dangling links and link loops are skipped with a row that says what is
// wrong (never a bare "no such file"), and none of them blocks the scan.

#include "importers/logdir/path_problem.h"
#include "importers/logdir/session_importer.h"
#include "tests/importers/import_test_support.h"

#include <QtTest>

#include <cerrno>
#include <fstream>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

using namespace stepscope;
namespace fs = std::filesystem;

namespace {
const char *kTrace = R"({"traceEvents":[
 {"ph":"X","name":"ProfilerStep#1","cat":"user_annotation","pid":1,"tid":1,"ts":0,"dur":100},
 {"ph":"X","name":"aten::mm","cat":"cpu_op","pid":1,"tid":1,"ts":10,"dur":20}]})";

void write(const fs::path &p, const std::string &text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

// "relative path -> what happened": an importer's format, "dup of X: reason" or "skip: reason".
std::map<std::string, std::string> outcome(const fs::path &root, const std::vector<ScannedFile> &files) {
    std::map<std::string, std::string> m;
    for (const ScannedFile &f : files) {
        const std::string rel = f.path.lexically_relative(root).string();
        if (!f.sameAs.empty()) m[rel] = "dup of " + f.sameAs.lexically_relative(root).string() + ": " + f.reason;
        else m[rel] = f.importer ? f.importer->format() : "skip: " + f.reason;
    }
    return m;
}

QString qs(const std::string &s) { return QString::fromStdString(s); }

QString dump(const std::map<std::string, std::string> &m) {
    QString out;
    for (const auto &[k, v] : m) out += qs(k) + " -> " + qs(v) + "\n";
    return out;
}
} // namespace

class TestLogdirLinks : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;

    fs::path fresh(const char *name) {
        const fs::path p = fs::path(m_tmp.path().toStdString()) / name;
        fs::create_directories(p);
        return p;
    }

private slots:
    void symlinkedFolderIsReadOnce() {
        const fs::path root = fresh("folder");
        write(root / "real/host.pt.trace.json", kTrace);
        fs::create_directory_symlink("real", root / "alias");
        ImporterRegistry registry;
        auto m = outcome(root, LogdirScanner(registry).scan({root}));
        QVERIFY2(m.size() == 2, qPrintable(dump(m)));
        QCOMPARE(qs(m["real/host.pt.trace.json"]), QStringLiteral("chrome_json"));
        QCOMPARE(qs(m["alias"]), qs("dup of real: same folder as " + (root / "real").string() +
                                       " (reached again through a symbolic link): its files are imported once"));
    }

    void linkToFileAndHardLinkAreReadOnce() {
        const fs::path root = fresh("files");
        write(root / "a.json", kTrace);
        fs::create_hard_link(root / "a.json", root / "b_hard.json");
        fs::create_symlink("a.json", root / "c_link.json");
        ImporterRegistry registry;
        auto m = outcome(root, LogdirScanner(registry).scan({root}));
        QVERIFY2(m.size() == 3, qPrintable(dump(m)));
        QCOMPARE(qs(m["a.json"]), QStringLiteral("chrome_json"));
        QCOMPARE(qs(m["b_hard.json"]), qs("dup of a.json: same file as " + (root / "a.json").string() +
                                             " (a hard link: same device and inode): imported once"));
        QCOMPARE(qs(m["c_link.json"]), qs("dup of a.json: same file as " + (root / "a.json").string() +
                                             " (reached again through a symbolic link): imported once"));
    }

    void everyRouteToOneFileImportsItsSlicesOnce() {
        const fs::path root = fresh("all_routes");
        write(root / "real/t.json", kTrace);
        fs::create_directory_symlink("real", root / "alias");
        fs::create_symlink("real/t.json", root / "link.json");
        fs::create_hard_link(root / "real/t.json", root / "hard.json");
        // The file named on its own, its folder, and the folder again through the link.
        const auto s = test::importPaths({root / "real/t.json", root, root / "alias"});
        QCOMPARE(s.summary.sources.size(), size_t(1));
        QCOMPARE(qs(s.summary.sources[0].path), qs((root / "real/t.json").string()));
        QCOMPARE(test::queryInt(*s.store, "SELECT count(*) FROM slice"), int64_t(2));  // not 4, 6 or 8
        // real/t.json (given twice), hard.json, alias (twice), link.json
        QCOMPARE(s.summary.duplicates.size(), size_t(5));
        QVERIFY(s.summary.skipped.empty());
        const QStringList log = test::queryRows(*s.store, "SELECT severity, code, file, message FROM import_log ORDER BY id");
        QCOMPARE(log.size(), 5);
        const QString first = qs((root / "real").string());
        for (const QString &row : log) {
            QVERIFY2(row.startsWith("warning|duplicate_path|"), qPrintable(row));
            QVERIFY2(row.contains(first), qPrintable(row));  // names the path that was imported ...
        }
        QVERIFY(log.join('\n').contains("|" + qs((root / "hard.json").string()) + "|"));  // ... and the duplicate
        QVERIFY(log.join('\n').contains("|" + qs((root / "link.json").string()) + "|"));
    }

    void specialFilesAreSkippedWithoutBlocking() {
        const fs::path root = fresh("special");
        write(root / "t.json", kTrace);
        QCOMPARE(::mkfifo((root / "pipe.json").c_str(), 0600), 0);  // opening it for reading would block
        const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        const std::string sockPath = (root / "s.sock").string();
        QVERIFY(sockPath.size() < sizeof addr.sun_path);
        std::strcpy(addr.sun_path, sockPath.c_str());
        QCOMPARE(::bind(sock, reinterpret_cast<sockaddr *>(&addr), sizeof addr), 0);
        fs::create_symlink("missing.json", root / "dangling.json");
        fs::create_symlink("loop_b", root / "loop_a");
        fs::create_symlink("loop_a", root / "loop_b");
        fs::create_directories(root / "sub");
        fs::create_directory_symlink("..", root / "sub/up");  // leads back to the folder being read
        ImporterRegistry registry;
        const auto files = LogdirScanner(registry).scan({root, root / "pipe.json", "/dev/null"});
        ::close(sock);
        std::map<std::string, std::string> m = outcome(root, files);
        QCOMPARE(qs(m["t.json"]), QStringLiteral("chrome_json"));
        QCOMPARE(qs(m["pipe.json"]), QStringLiteral("skip: not a regular file (FIFO)"));
        QCOMPARE(qs(m["s.sock"]), QStringLiteral("skip: not a regular file (socket)"));
        QCOMPARE(qs(m["dangling.json"]), QStringLiteral("skip: dangling symbolic link: its target does not exist (points to missing.json)"));
        QCOMPARE(qs(m["loop_a"]), QStringLiteral("skip: symbolic link loop: following it never reaches a file or folder (points to loop_b)"));
        QCOMPARE(qs(m["loop_b"]), QStringLiteral("skip: symbolic link loop: following it never reaches a file or folder (points to loop_a)"));
        QCOMPARE(qs(m["sub/up"]), qs("skip: symbolic link loop: leads back to " + root.string() + ", a folder that contains it"));
        // Named directly: the FIFO once more (a duplicate of the one in the folder) and a device.
        int fifoRows = 0;
        bool device = false;
        for (const ScannedFile &f : files) {
            fifoRows += f.path == root / "pipe.json";
            if (f.path == "/dev/null") device = f.reason == "not a regular file (character device)" && f.unreadable;
        }
        QCOMPARE(fifoRows, 2);
        QVERIFY(device);
    }

    void skippedSpecialFilesAreWarningsInTheImportLog() {
        const fs::path root = fresh("logged");
        write(root / "t.json", kTrace);
        write(root / "notes.txt", "not a trace\n");
        QCOMPARE(::mkfifo((root / "pipe").c_str(), 0600), 0);
        fs::create_symlink("nowhere", root / "dangling");
        const auto s = test::importPaths({root});
        QCOMPARE(s.summary.sources.size(), size_t(1));
        QCOMPARE(s.summary.skipped.size(), size_t(3));
        // One code for a skipped file; the scanner's reason, which tells the three apart, is in the words.
        const QStringList log = test::queryRows(*s.store, "SELECT severity, code || ': ' || message FROM import_log ORDER BY file");
        QCOMPARE(log, QStringList({"warning|file_skipped: skipped: dangling symbolic link: its target does not exist (points to nowhere)",
                                   "info|file_skipped: skipped: not a format Stepscope reads (content not recognised)",
                                   "warning|file_skipped: skipped: not a regular file (FIFO)"}));
    }

    // A link to "/" inside a logdir once imported the whole machine (/proc, /dev/shm, ...): links that
    // leave the folder given are listed as skipped, not followed, unless asked; never into /proc,
    // /sys or /dev.
    void linksOutOfTheFolderAreNotFollowed() {
        const fs::path root = fresh("outward");
        const fs::path elsewhere = fs::canonical(fresh("elsewhere"));
        write(root / "t.json", kTrace);
        write(elsewhere / "other.json", kTrace);
        fs::create_directory_symlink("/", root / "everything");
        fs::create_directory_symlink(elsewhere, root / "away");
        fs::create_directory_symlink("/proc/self", root / "proc_self");
        fs::create_symlink("/dev/zero", root / "zero.json");
        fs::create_directories(root / "z_inner");  // listed after t.json
        fs::create_symlink("../t.json", root / "z_inner/back.json");  // stays inside: followed (a duplicate)
        ImporterRegistry registry;
        const auto files = LogdirScanner(registry).scan({root});
        const auto m = outcome(root, files);
        QVERIFY2(m.size() == 6, qPrintable(dump(m)));  // nothing from "/" or from elsewhere
        const std::string canonicalRoot = fs::canonical(root).string();
        const std::string notFollowed = ", outside " + canonicalRoot + ": not followed (--follow-links follows links out of the folder given)";
        QCOMPARE(qs(m.at("t.json")), QStringLiteral("chrome_json"));
        QCOMPARE(qs(m.at("everything")), qs("skip: symbolic link to /" + notFollowed));
        QCOMPARE(qs(m.at("away")), qs("skip: symbolic link to " + elsewhere.string() + notFollowed));
        QVERIFY2(qs(m.at("proc_self")).startsWith("skip: symbolic link to /proc/"), qPrintable(dump(m)));
        QVERIFY2(qs(m.at("proc_self")).endsWith(": never followed into /proc, /sys or /dev"), qPrintable(dump(m)));
        QCOMPARE(qs(m.at("zero.json")), QStringLiteral("skip: symbolic link to /dev/zero: never followed into /proc, /sys or /dev"));
        QVERIFY2(qs(m.at("z_inner/back.json")).startsWith("dup of t.json"), qPrintable(dump(m)));
        for (const ScannedFile &f : files)
            if (f.reason.starts_with("symbolic link to ")) QVERIFY2(f.unreadable, f.path.c_str());  // a warning

        // Asked to follow links: the folder elsewhere is read, /proc and /dev still are not.
        fs::remove(root / "everything");
        const auto followed = outcome(root, LogdirScanner(registry, true).scan({root}));
        QCOMPARE(qs(followed.at("away/other.json")), QStringLiteral("chrome_json"));
        QVERIFY(qs(followed.at("proc_self")).endsWith(": never followed into /proc, /sys or /dev"));
        QVERIFY(qs(followed.at("zero.json")).endsWith(": never followed into /proc, /sys or /dev"));
        QVERIFY2(followed.size() == 5, qPrintable(dump(followed)));  // "away" itself is walked, not listed

        // The import lists the skipped link in import_log as a warning naming it.
        fs::create_directory_symlink("/", root / "everything");
        const auto s = test::importPaths({root});
        QCOMPARE(s.summary.sources.size(), size_t(1));
        const QStringList log = test::queryRows(*s.store, "SELECT severity, file, message FROM import_log WHERE code = 'file_skipped' AND message LIKE '%symbolic link to /,%'");
        QCOMPARE(log.size(), 1);
        QVERIFY2(log[0].startsWith("warning|" + qs((root / "everything").string()) + "|skipped: symbolic link to /, outside"), qPrintable(log[0]));
    }

    // Root cannot be refused a folder, so the words for EACCES are checked on the mapping itself;
    // the unlistable-folder path was checked by hand as an unprivileged user (see the commit).
    void errorCodesBecomeWords() {
        QCOMPARE(qs(pathErrorText(EACCES)), QStringLiteral("permission denied"));
        QCOMPARE(qs(pathErrorText(std::make_error_code(std::errc::permission_denied))), QStringLiteral("permission denied"));
        QCOMPARE(qs(pathErrorText(std::error_code(EPERM, std::system_category()))), QStringLiteral("permission denied"));
        QCOMPARE(qs(pathErrorText(ELOOP)), QStringLiteral("symbolic link loop (too many levels of symbolic links)"));
        QCOMPARE(qs(pathErrorText(std::error_code())), QString());
        QCOMPARE(qs(fileTypeText(S_IFIFO | 0600)), QStringLiteral("not a regular file (FIFO)"));
        QCOMPARE(qs(fileTypeText(S_IFBLK | 0600)), QStringLiteral("not a regular file (block device)"));
        QCOMPARE(qs(fileTypeText(S_IFREG | 0600)), QString());
        // A path that really is missing (not a link) says so without the system's capitalised phrase.
        const fs::path missing = fs::path(m_tmp.path().toStdString()) / "never_created.json";
        QCOMPARE(qs(unreachablePathText(missing, std::error_code(ENOENT, std::generic_category()))), QStringLiteral("does not exist"));
    }
};

QTEST_GUILESS_MAIN(TestLogdirLinks)
#include "tst_logdir_links.moc"
