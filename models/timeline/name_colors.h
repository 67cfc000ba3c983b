#pragma once
// Colours follow identity (STYLE.md): an interned name id maps to one colour in every view —
// timeline slices, op tables, legends. Pure functions, no state; any view may include this.

#include <QColor>

#include <cstdint>

namespace stepscope {

// Fill colour for slices and table swatches of the name with this interned id. Light, varied
// hues that keep dark 9-10 pt text readable on top.
QColor nameColor(int64_t nameId);

// Text colour (dark or white) that reads on `fill`.
QColor textColorOn(const QColor &fill);

} // namespace stepscope
