// WorkerThread and CancelToken (models/concurrency/), the one thread primitive and the one
// cancellation form of importers and GUI jobs: the work runs on its own thread, what it throws comes
// back through join(), the destructor waits for it, copies of a token share one flag, and no file
// of Stepscope starts a std::thread (or keeps a bare atomic cancel flag) beside them.

#include "models/concurrency/cancel_token.h"
#include "models/concurrency/worker_thread.h"

#include <QtTest>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <regex>
#include <stdexcept>
#include <string>
#include <thread>

using namespace stepscope;
namespace fs = std::filesystem;

class TstWorkerThread : public QObject {
    Q_OBJECT
private slots:
    void runsTheWorkOnAnotherThread() {
        std::thread::id ranOn;
        WorkerThread t([&] { ranOn = std::this_thread::get_id(); });
        QVERIFY(t.joinable());
        t.join();
        QVERIFY(!t.joinable());
        QVERIFY(ranOn != std::thread::id());
        QVERIFY(ranOn != std::this_thread::get_id());
    }

    void joinRethrowsWhatTheWorkThrew() {
        WorkerThread t([] { throw std::runtime_error("disk full"); });
        try {
            t.join();
            QFAIL("join() did not rethrow");
        } catch (const std::runtime_error &e) {
            QCOMPARE(std::string(e.what()), std::string("disk full"));
        }
    }

    void destructorWaitsAndDropsTheError() {
        std::atomic<bool> ended{false};
        {
            WorkerThread t([&] {
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
                ended = true;
                throw std::runtime_error("nobody joins");
            });
        }
        QVERIFY(ended);
    }

    void aMovedThreadStillDeliversItsError() {
        std::vector<WorkerThread> threads;
        for (int i = 0; i < 4; ++i)
            threads.emplace_back([i] {
                if (i == 2) throw std::runtime_error("third");
            });
        int thrown = 0;
        for (WorkerThread &t : threads) {
            try {
                t.join();
            } catch (const std::runtime_error &) {
                ++thrown;
            }
        }
        QCOMPARE(thrown, 1);
        QVERIFY(WorkerThread::hardwareThreads() >= 1);
    }

    void tokenCopiesShareOneFlagAndRunTheInterrupt() {
        const CancelToken token;
        const CancelToken copy = token;
        const CancelToken other;
        int interrupts = 0;
        copy.setInterrupt([&] { ++interrupts; });
        QVERIFY(!copy.cancelled());
        token.cancel();
        QVERIFY(copy.cancelled());
        QVERIFY(!other.cancelled());  // a fresh token is nobody else's
        QCOMPARE(interrupts, 1);
        copy.setInterrupt([&] { ++interrupts; });  // registered after the cancel: runs at once
        QCOMPARE(interrupts, 2);
    }

    // Every thread of Stepscope is a WorkerThread and every cancel flag a CancelToken: a raw
    // std::thread, or an atomic<bool> handed down as a cancel flag, anywhere else fails here.
    void noOtherThreadPrimitiveOrCancelFlag() {
        const fs::path root = STEPSCOPE_SOURCE_DIR;
        const std::regex rawThread("std::(j?thread)\\b(?!::id|::hardware_concurrency)");
        const std::regex rawCancel("atomic<bool>\\s*[*&]\\s*\\w*cancel", std::regex::icase);
        QStringList problems;
        int files = 0;
        for (const char *top : {"models", "importers", "views", "app"}) {
            for (const auto &entry : fs::recursive_directory_iterator(root / top)) {
                const std::string ext = entry.path().extension().string();
                if (!entry.is_regular_file() || (ext != ".h" && ext != ".cpp")) continue;
                const std::string rel = fs::relative(entry.path(), root).generic_string();
                if (rel.rfind("models/concurrency/", 0) == 0) continue;  // the primitive itself
                ++files;
                std::ifstream in(entry.path());
                std::string line;
                for (int n = 1; std::getline(in, line); ++n) {
                    const std::string code = line.substr(0, line.find("//"));
                    if (std::regex_search(code, rawThread) || std::regex_search(code, rawCancel))
                        problems << QString::fromStdString(rel + ":" + std::to_string(n) + ": " + line);
                }
            }
        }
        QVERIFY(files > 300);  // the tree was found
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    }
};

QTEST_GUILESS_MAIN(TstWorkerThread)
#include "tst_worker_thread.moc"
