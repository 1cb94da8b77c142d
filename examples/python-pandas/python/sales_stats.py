# Statistics over a sales CSV, computed with pandas and called from Fitz through
# `from python import sales_stats`. The frame is read once; every function returns plain
# lists and dicts (numpy scalars included: they convert to Int and Float on the Fitz side).
import pandas as pd

_frame = None


def load(path):
    """Reads the CSV (date, region, product, units, unit_price); returns the row count."""
    global _frame
    frame = pd.read_csv(path, parse_dates=["date"])
    frame["revenue"] = frame["units"] * frame["unit_price"]
    _frame = frame
    return len(frame)


def summary():
    f = _frame
    return {
        "rows": len(f),
        "units": f["units"].sum(),
        "revenue": round(f["revenue"].sum(), 2),
        "first_day": f["date"].min().strftime("%Y-%m-%d"),
        "last_day": f["date"].max().strftime("%Y-%m-%d"),
    }


def by_region():
    g = _frame.groupby("region").agg(units=("units", "sum"), revenue=("revenue", "sum"),
                                     orders=("units", "size"))
    # itertuples keeps each column's dtype (iterrows would turn the integer columns into floats).
    return [{"region": row.Index, "units": row.units, "orders": row.orders, "revenue": round(row.revenue, 2)}
            for row in g.sort_index().itertuples()]


def top_products(n):
    if n < 1:
        raise ValueError("n must be at least 1, not %d" % n)
    s = _frame.groupby("product")["revenue"].sum().sort_values(ascending=False).head(n)
    return [{"product": product, "revenue": round(revenue, 2)} for product, revenue in s.items()]


def monthly(region):
    f = _frame[_frame["region"] == region]
    if f.empty:
        raise KeyError("no sales in region %r" % region)
    s = f.groupby(f["date"].dt.strftime("%Y-%m"))["revenue"].sum()
    return [{"month": month, "revenue": round(revenue, 2)} for month, revenue in s.items()]
