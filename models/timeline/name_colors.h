#pragma once
// Colours follow identity (STYLE.md): an interned name id maps to one colour in every view —
// timeline slices, op tables, legends. Pure functions, no state; any view may include this.

#include <QColor>
#include <QStringView>

#include <cstdint>

namespace stepscope {

// Fill colour for slices and table swatches of the name with this interned id. Light, varied
// hues that keep dark 9-10 pt text readable on top.
QColor nameColor(int64_t nameId);

// The colour of a name given as text — what every view uses, so an op has one colour wherever it
// appears (and in every session). Numbered repeats ("ProfilerStep#12", "ProfilerStep#13") share
// their stem's colour.
QColor nameColorForText(QStringView name);

// Text colour (dark or white) that reads on `fill`.
QColor textColorOn(const QColor &fill);

} // namespace stepscope
