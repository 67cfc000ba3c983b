#include "models/timeline/name_colors.h"

#include <QHash>

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

} // namespace stepscope
