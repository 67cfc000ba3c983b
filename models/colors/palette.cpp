#include "models/colors/palette.h"

#include <QHash>

#include <iterator>

namespace stepscope {

namespace {
// SplitMix64 finaliser: neighbouring ids (interned one after the other) land far apart in hue.
uint64_t mix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}
} // namespace

QColor nameColor(int64_t nameId) {
    const uint64_t h = mix(uint64_t(nameId));
    const int hue = int(h % 360);
    const int sat = 110 + int((h >> 16) % 70);   // 110..179 of 255: clearly coloured, not neon
    const int light = 165 + int((h >> 32) % 40); // 165..204: light enough for dark labels
    return QColor::fromHsl(hue, sat, light);
}

QColor nameColorForText(QStringView name) {
    qsizetype end = name.size(), i = end;
    while (i > 0 && name[i - 1].isDigit()) --i;
    if (i < end && i > 0 && name[i - 1] == u'#') end = i - 1;
    return nameColor(int64_t(qHash(name.left(end))));  // seed 0: the same in every run
}

QColor textColorOn(const QColor &fill) {
    const double luma = 0.299 * fill.redF() + 0.587 * fill.greenF() + 0.114 * fill.blueF();
    return luma > 0.55 ? QColor(28, 30, 34) : QColor(255, 255, 255);
}

QColor categoryColor(Category c) {
    static const QColor colors[kCategoryCount] = {
        QColor(0x2e, 0x7d, 0x32),  // device_compute: green
        QColor(0x8e, 0x24, 0xaa),  // collective: purple
        QColor(0xf9, 0xa8, 0x25),  // h2d: amber
        QColor(0xef, 0x6c, 0x00),  // d2h: orange
        QColor(0xa1, 0x88, 0x7f),  // d2d: brown-grey
        QColor(0x00, 0x83, 0x8f),  // kernel_launch: teal
        QColor(0xd3, 0x2f, 0x2f),  // input: red
        QColor(0x19, 0x76, 0xd2),  // host_compute: blue
        QColor(0xec, 0x40, 0x7a),  // callback: pink
        QColor(0x5d, 0x40, 0x37),  // checkpoint: dark brown
        QColor(0x7c, 0xb3, 0x42),  // compilation: light green
        QColor(0xbd, 0xbd, 0xbd),  // other: grey
    };
    return colors[size_t(c)];
}

QColor seriesPaletteColor(size_t index) {
    static const QColor kTableau10[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
                                        QColor(0xd6, 0x27, 0x28), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                                        QColor(0xe3, 0x77, 0xc2), QColor(0x7f, 0x7f, 0x7f), QColor(0xbc, 0xbd, 0x22),
                                        QColor(0x17, 0xbe, 0xcf)};
    return kTableau10[index % std::size(kTableau10)];
}

} // namespace stepscope
