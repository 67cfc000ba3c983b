// The one text sanitiser (models/text/printable_text.h, display_text.h): the same characters —
// C0 controls, DEL, C1 controls — are escaped as \xNN for terminals and text (printableText) and
// drawn as U+FFFD in the views (displayText, which keeps tab and newline); everything else is kept.

#include "models/text/display_text.h"
#include "models/text/printable_text.h"

#include <QtTest>

#include <string>

using namespace stepscope;

class TstTextSanitiser : public QObject {
    Q_OBJECT
private slots:
    void printableTextKnownStrings() {
        QCOMPARE(printableText("plain µs name"), std::string("plain µs name"));
        QCOMPARE(printableText(std::string("a\x1b[31mred\nb\x7f", 12)), std::string("a\\x1b[31mred\\x0ab\\x7f"));
        QCOMPARE(printableText("c1 \xc2\x9b here"), std::string("c1 \\x9b here"));      // CSI as a C1 control
        QCOMPARE(printableText("nbsp \xc2\xa0 kept"), std::string("nbsp \xc2\xa0 kept")); // U+00A0 is text
        QCOMPARE(printableText("lone \xc2\x05"), std::string("lone \xc2\\x05"));           // not a C1: C2 kept
        QCOMPARE(markdownText("a*b"), std::string("a\\*b"));
    }

    void displayTextKnownStrings() {
        QCOMPARE(displayText(QStringLiteral("tab\tline\nend")), QStringLiteral("tab\tline\nend"));
        QCOMPARE(displayText(QString::fromUtf8("a\x01" "b\x7f" "c\xc2\x85" "d")), QString::fromUtf8("a\xef\xbf\xbd" "b\xef\xbf\xbd" "c\xef\xbf\xbd" "d"));
        QCOMPARE(displayText(QString(QChar(0xFFFE))), QString(QChar::ReplacementCharacter));
    }

    void bothSanitiseTheSameCharacters() {
        for (char32_t c = 0; c < 0x100; ++c) {
            const QString one = QString::fromUcs4(&c, 1);
            const std::string utf8 = one.toStdString();
            const bool escaped = printableText(utf8) != utf8;
            const bool replaced = displayText(one) != one;
            QCOMPARE(escaped, isControlCharacter(c));
            QCOMPARE(replaced, isControlCharacter(c) && c != U'\t' && c != U'\n');
        }
    }
};

QTEST_GUILESS_MAIN(TstTextSanitiser)
#include "tst_text_sanitiser.moc"
