#pragma once
// GUI entry points: the interactive window, and the headless commands that render views
// (export, report --screenshots), which need a QApplication but no display.

#include <string>
#include <vector>

namespace stepscope::gui {

int runGui(int argc, char **argv, const std::vector<std::string> &args);
int runHeadlessCommand(int argc, char **argv, const std::vector<std::string> &args);
void setApplicationIdentity();

} // namespace stepscope::gui
