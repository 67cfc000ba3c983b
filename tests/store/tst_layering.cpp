// The layering of the code, checked over the source tree: each layer includes only its own headers
// and those of the layers below it (models/text and models/concurrency ← models/store ←
// models/trace ← importers, models ← views ← app; the synthetic generator sits on the store and
// the base alone), and SQLite is touched only by models/store — no <sqlite3.h> and no sqlite3_*
// call anywhere else. A new include that crosses a layer fails here, naming the
// file, line and header.

#include <QtTest>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <regex>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Layer {
    std::string prefix;                 // files under it (first match wins)
    std::vector<std::string> allowed;   // the header folders they may include
};

const std::vector<Layer> &layers() {
    static const std::vector<Layer> kLayers = {
        {"models/text/", {"models/text/"}},
        {"models/concurrency/", {"models/concurrency/"}},
        {"models/store/", {"models/store/", "models/text/", "models/concurrency/"}},
        {"models/trace/", {"models/trace/", "models/store/", "models/text/", "models/concurrency/"}},
        {"importers/", {"importers/", "models/store/", "models/trace/", "models/text/", "models/concurrency/"}},
        {"models/", {"models/"}},
        {"views/", {"views/", "models/"}},
        {"app/synth/", {"app/synth/", "models/store/", "models/text/", "models/concurrency/"}},
        {"app/", {"app/", "views/", "models/", "importers/"}},
    };
    return kLayers;
}

} // namespace

class TstLayering : public QObject {
    Q_OBJECT
private slots:
    void eachLayerIncludesOnlyWhatIsBelowIt() {
        const fs::path root = STEPSCOPE_SOURCE_DIR;
        const std::regex include("^\\s*#\\s*include\\s+\"([^\"]+)\"");
        const std::regex sqliteCall("\\bsqlite3_[a-z_]+\\s*\\(");
        QStringList problems;
        int files = 0;
        for (const char *top : {"models", "importers", "views", "app"}) {
            for (const auto &entry : fs::recursive_directory_iterator(root / top)) {
                const std::string ext = entry.path().extension().string();
                if (!entry.is_regular_file() || (ext != ".h" && ext != ".cpp"))
                    continue;
                ++files;
                const std::string rel = fs::relative(entry.path(), root).generic_string();
                const Layer *layer = nullptr;
                for (const Layer &l : layers())
                    if (rel.rfind(l.prefix, 0) == 0) {
                        layer = &l;
                        break;
                    }
                const bool store = rel.rfind("models/store/", 0) == 0;
                std::ifstream in(entry.path());
                std::string line;
                for (int n = 1; std::getline(in, line); ++n) {
                    std::smatch m;
                    if (std::regex_search(line, m, include)) {
                        const std::string header = m[1];
                        const bool local = header.find('/') == std::string::npos;  // moc output, same folder
                        bool ok = local;
                        for (const std::string &a : layer->allowed)
                            ok = ok || header.rfind(a, 0) == 0;
                        if (!ok)
                            problems << QString::fromStdString(rel + ":" + std::to_string(n) + " includes " + header);
                    }
                    if (!store && (line.find("<sqlite3.h>") != std::string::npos || std::regex_search(line, sqliteCall)))
                        problems << QString::fromStdString(rel + ":" + std::to_string(n) + " uses SQLite directly: " + line);
                }
            }
        }
        QVERIFY(files > 300);  // the tree was found
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    }

    // Inside models/analysis the roles include downward: engine/ and rules/ compute (each uses the
    // other), service/ keeps and serves their results, report/ reads them, tables/ shows reports and
    // comparisons to the views; nothing below includes what is above it.
    void analysisRolesIncludeDownward() {
        const fs::path root = fs::path(STEPSCOPE_SOURCE_DIR) / "models/analysis";
        const std::regex include("^\\s*#\\s*include\\s+\"models/analysis/([a-z]+)/");
        const std::map<std::string, std::set<std::string>> above = {
            {"engine", {"service", "report", "tables"}},
            {"rules", {"service", "report", "tables"}},
            {"service", {"report", "tables"}},
            {"report", {"tables"}},
        };
        QStringList problems;
        int files = 0;
        for (const auto &entry : fs::recursive_directory_iterator(root)) {
            if (!entry.is_regular_file()) continue;
            const std::string role = entry.path().parent_path().filename().string();
            const auto forbidden = above.find(role);
            ++files;
            std::ifstream in(entry.path());
            std::string line;
            std::smatch m;
            for (int n = 1; std::getline(in, line); ++n)
                if (std::regex_search(line, m, include) && forbidden != above.end() && forbidden->second.count(m[1]))
                    problems << QString::fromStdString(role + "/" + entry.path().filename().string() + ":" + std::to_string(n) +
                                                       " includes " + m[1].str() + "/");
        }
        QVERIFY(files > 60);  // the folders were found
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    }

    // Views are handed the session's shared models by their owner (SessionModels); none looks one
    // up. (The export caption is a function of a session, not a view.)
    void viewsAreHandedTheirModels() {
        const fs::path root = fs::path(STEPSCOPE_SOURCE_DIR) / "views";
        const std::set<std::string> notViews = {"export_caption.cpp"};
        const std::regex lookup("\\b(AnalysisModel|AnnotationModel|SavedViewModel)::of\\(");
        QStringList problems;
        int files = 0;
        for (const auto &entry : fs::recursive_directory_iterator(root)) {
            if (!entry.is_regular_file() || notViews.count(entry.path().filename().string())) continue;
            ++files;
            std::ifstream in(entry.path());
            std::string line;
            for (int n = 1; std::getline(in, line); ++n)
                if (std::regex_search(line, lookup))
                    problems << QString::fromStdString(entry.path().filename().string() + ":" + std::to_string(n) + ": " + line);
        }
        QVERIFY(files > 50);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    }
};

QTEST_GUILESS_MAIN(TstLayering)
#include "tst_layering.moc"
