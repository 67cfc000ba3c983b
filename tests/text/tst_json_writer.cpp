// appendJsonString (models/text/json_string.h), the one hand-written JSON string of Stepscope (the
// importers' args from binary formats, the synthetic trace writer): quotes and backslashes escaped,
// control characters as \u00XX, valid UTF-8 kept, invalid bytes as U+FFFD — so whatever a file
// holds, the text is valid JSON that reads back as what was written.

#include "models/text/json_string.h"

#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <string>

using namespace stepscope;

namespace {
std::string jsonString(std::string_view text) {
    std::string out;
    appendJsonString(out, text);
    return out;
}
} // namespace

class TstJsonWriter : public QObject {
    Q_OBJECT
private slots:
    void knownStrings_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("plain") << QByteArray("ncclAllReduce") << QByteArray("\"ncclAllReduce\"");
        QTest::newRow("empty") << QByteArray("") << QByteArray("\"\"");
        QTest::newRow("quote") << QByteArray("say \"hi\"") << QByteArray("\"say \\\"hi\\\"\"");
        QTest::newRow("backslash") << QByteArray("C:\\tmp") << QByteArray("\"C:\\\\tmp\"");
        QTest::newRow("controls") << QByteArray("a\nb\tc\x01", 6) << QByteArray("\"a\\u000ab\\u0009c\\u0001\"");
        QTest::newRow("nul") << QByteArray("a\0b", 3) << QByteArray("\"a\\u0000b\"");
        QTest::newRow("utf-8 kept") << QByteArray("\xc2\xb5s \xe2\x80\xa6 \xf0\x9f\x98\x80") << QByteArray("\"\xc2\xb5s \xe2\x80\xa6 \xf0\x9f\x98\x80\"");
        QTest::newRow("invalid byte") << QByteArray("a\xff" "b") << QByteArray("\"a\xef\xbf\xbd" "b\"");
        QTest::newRow("cut sequence") << QByteArray("\xe2\x80") << QByteArray("\"\xef\xbf\xbd\xef\xbf\xbd\"");
        QTest::newRow("overlong") << QByteArray("\xc0\xaf") << QByteArray("\"\xef\xbf\xbd\xef\xbf\xbd\"");
    }
    void knownStrings() {
        QFETCH(QByteArray, text);
        QFETCH(QByteArray, json);
        QCOMPARE(QByteArray::fromStdString(jsonString(std::string_view(text.constData(), size_t(text.size())))), json);
    }

    void readsBackAsWritten() {
        const std::string nasty = std::string("a\"b\\c\nd\x7f e\x1f", 11) + "\xc2\xb5";
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString("[" + jsonString(nasty) + "]"));
        QVERIFY(doc.isArray());
        QCOMPARE(doc.array().first().toString(), QString::fromStdString(nasty));
    }
};

QTEST_GUILESS_MAIN(TstJsonWriter)
#include "tst_json_writer.moc"
