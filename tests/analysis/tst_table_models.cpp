// QAbstractItemModelTester over the table models the views read (issue #19 item 6): op statistics
// (every side filter) and the compare view's op deltas, through resets, empty and full; plus the
// sort role giving numbers where the display gives text; and the StatsTableProxy both are shown through.

#include "models/analysis/tables/op_delta_table_model.h"
#include "models/analysis/tables/op_stats_table_model.h"
#include "views/analysis/stats_table.h"

#include <QAbstractItemModelTester>
#include <QTableView>
#include <QtTest>

using namespace stepscope;

namespace {

std::vector<OpStat> someOps() {
    std::vector<OpStat> ops;
    for (int i = 0; i < 6; ++i) {
        OpStat o;
        o.name = "op" + std::to_string(i);
        o.device = i % 2 ? 0 : -1;
        o.count = 10 + i;
        o.totalNs = int64_t(i + 1) * 1'000'000;
        o.selfNs = o.totalNs / 2;
        o.minNs = 1000;
        o.maxNs = o.totalNs;
        if (!o.host()) o.kernel.grid = "[1,1,1]";
        ops.push_back(o);
    }
    return ops;
}

std::vector<OpDelta> someDeltas() {
    std::vector<OpDelta> out;
    for (int i = 0; i < 5; ++i) {
        OpDelta d;
        d.name = "k" + std::to_string(i);
        d.device = i == 0 ? -1 : 0;
        d.baseCount = i == 4 ? 0 : 3;
        d.newCount = i == 3 ? 0 : 3;
        d.baseMsPerStep = i == 4 ? 0 : 2.0 * i;
        d.newMsPerStep = i == 3 ? 0 : 1.5 * i;
        d.status = i == 4 ? OpDelta::Status::New : i == 3 ? OpDelta::Status::Gone : OpDelta::Status::Changed;
        out.push_back(d);
    }
    return out;
}

} // namespace

class TestTableModels : public QObject {
    Q_OBJECT
private slots:
    void opStatsModelIsConsistent() {
        OpStatsTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        model.setOps(someOps());
        QCOMPARE(model.rowCount(), 3);  // the default filter: device ops
        for (auto f : {OpStatsTableModel::SideFilter::Host, OpStatsTableModel::SideFilter::All, OpStatsTableModel::SideFilter::Device})
            model.setSideFilter(f);
        model.setSideFilter(OpStatsTableModel::SideFilter::All);
        QCOMPARE(model.rowCount(), 6);
        const QVariant sort = model.data(model.index(0, OpStatsTableModel::Total), OpStatsTableModel::SortRole);
        QVERIFY(sort.canConvert<double>() || sort.canConvert<qlonglong>());
        model.setOps({});
        QCOMPARE(model.rowCount(), 0);
    }

    void opDeltaModelIsConsistent() {
        OpDeltaTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setOps(someDeltas());
        QCOMPARE(model.rowCount(), 5);
        QCOMPARE(model.columnCount(), int(OpDeltaTableModel::ColumnCount));
        QCOMPARE(model.data(model.index(4, OpDeltaTableModel::Status), Qt::DisplayRole).toString(), QStringLiteral("new"));
        QCOMPARE(model.data(model.index(3, OpDeltaTableModel::Status), Qt::DisplayRole).toString(), QStringLiteral("gone"));
        QCOMPARE(model.data(model.index(0, OpDeltaTableModel::Side), Qt::DisplayRole).toString(), QStringLiteral("host"));
        QCOMPARE(model.data(model.index(2, OpDeltaTableModel::DeltaMs), OpDeltaTableModel::SortRole).toDouble(), -1.0);
        QCOMPARE(model.data(model.index(2, OpDeltaTableModel::DeltaMs), Qt::DisplayRole).toString(), QStringLiteral("-1.000"));
        QCOMPARE(model.data(model.index(4, OpDeltaTableModel::DeltaMs), Qt::DisplayRole).toString(), QStringLiteral("+6.000"));
        model.setOps({});
        QCOMPARE(model.rowCount(), 0);
    }

    // The views show both tables through StatsTableProxy (sorting, the name filter): the proxy over a
    // model that changes under it must stay consistent too.
    void statsTableProxyIsConsistent() {
        OpStatsTableModel model;
        QTableView table;
        auto *proxy = new StatsTableProxy([](int column) { return column == OpStatsTableModel::Name; }, &table);
        setUpStatsTable(&table, proxy, &model, OpStatsTableModel::SortRole, OpStatsTableModel::Name);
        QAbstractItemModelTester tester(proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setOps(someOps());
        model.setSideFilter(OpStatsTableModel::SideFilter::All);
        proxy->sort(OpStatsTableModel::Total, Qt::DescendingOrder);
        QCOMPARE(proxy->rowCount(), 6);
        const auto total = [&](int row) { return proxy->data(proxy->index(row, OpStatsTableModel::Total), OpStatsTableModel::SortRole).toDouble(); };
        for (int r = 1; r < proxy->rowCount(); ++r)
            QVERIFY(total(r - 1) >= total(r));
        proxy->setFilterFixedString(QString::fromStdString(someOps().front().name).toUpper());  // case-insensitive
        QVERIFY(proxy->rowCount() >= 1);
        model.setOps({});
        QCOMPARE(proxy->rowCount(), 0);
    }
};

QTEST_MAIN(TestTableModels)
#include "tst_table_models.moc"
