#pragma once
// One colour per step-time category, used by every view (step bars, legends, findings) so a category
// looks the same everywhere. Owned by views/analysis.

#include "models/analysis/engine/category.h"

#include <QColor>

namespace stepscope {

inline QColor categoryColor(Category c) {
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

} // namespace stepscope
