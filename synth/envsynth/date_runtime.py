"""Date and span functions of the learned expressions' runtime: day numbers, adding days, overlapping spans.

Copied below the `# runtime` line into env.py files after expr_runtime.py's functions (codegen.header_source), so
the same rules hold as for that module: plain functions over JSON values, sandbox-safe, no imports.
"""

# runtime


def fg_dated(check, record, state):
    """Whether a date of the record (or of the one its `via` names), with its time of day when `time_field` is
    given, stands on the `cmp` side of the check's value (or of the record's `value_field`); True without one."""
    holder = (state.get(check["collection"]) or {}).get(str(record.get(check["via"]))) if "via" in check else record
    day = holder.get(check["field"]) if isinstance(holder, dict) else None
    if "time_field" in check and isinstance(day, str):
        time = holder.get(check["time_field"])
        parts = time.split(":") if isinstance(time, str) else []  # "9:30" and "09:30:00" read as "09:30"
        day = day + " " + parts[0].strip().zfill(2) + ":" + parts[1][:2] if len(parts) >= 2 else None
    if not isinstance(day, str):
        return True
    value = record.get(check["value_field"], "") if "value_field" in check else check["value"]
    return {">=": day >= value, "<=": day <= value, ">": day > value, "<": day < value}[check["cmp"]]


def fg_clock(value):
    """Whether `value` is a time of day written HH:MM on the 24-hour clock ("09:05", "17:45"; not "9:05", "5pm")."""
    if not isinstance(value, str) or len(value) != 5 or value[2] != ":":
        return False
    hours, minutes = value[:2], value[3:]
    return hours.isdigit() and minutes.isdigit() and int(hours) < 24 and int(minutes) < 60


def fg_day_number(day):
    """Whole days from a fixed origin to the ISO date `day` (proleptic Gregorian), or None when it is not one."""
    parts = day.split("-") if isinstance(day, str) else []
    if len(parts) != 3 or not all([p.isdigit() for p in parts]):
        return None
    y, m, d = int(parts[0]), int(parts[1]), int(parts[2])
    if not (1 <= m <= 12 and 1 <= d <= 31):
        return None
    y -= 1 if m <= 2 else 0
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    return era * 146097 + yoe * 365 + yoe // 4 - yoe // 100 + doy


def fg_add_days(day, days):
    """The ISO date a whole number of `days` after the ISO date `day` (proleptic Gregorian), or None when either is
    not one."""
    start = fg_day_number(day)
    if start is None or not isinstance(days, (int, float)) or isinstance(days, bool) or days != int(days):
        return None
    z = start + int(days)
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    y = yoe + era * 400 + (1 if m <= 2 else 0)
    return "%04d-%02d-%02d" % (y, m, d)


def fg_add_minutes(moment, minutes):
    """The timestamp a whole number of `minutes` after `moment` ("2031-03-05T10:00", with a space or seconds and a
    zone kept as they are), or None when either is not one."""
    if not isinstance(moment, str) or len(moment) < 16 or moment[13] != ":" or moment[10] not in "T ":
        return None
    if not isinstance(minutes, int) or isinstance(minutes, bool):
        return None
    hours, mins = moment[11:13], moment[14:16]
    if not (hours.isdigit() and mins.isdigit()):
        return None
    total = int(hours) * 60 + int(mins) + minutes
    day = fg_add_days(moment[:10], total // 1440)
    if day is None:
        return None
    total = total % 1440
    return day + moment[10] + "%02d:%02d" % (total // 60, total % 60) + moment[16:]


def fg_plain_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def fg_no_overlap(check, record, state):
    """Whether no stored record of the collection that shares the `same` fields and is in the `where` states has a
    span (start and length, or start and end) overlapping the record's."""

    def span(one):
        start = one.get(check["start"])
        if "length" in check:
            length = one.get(check["length"])
            return (start, start + length) if fg_plain_number(start) and fg_plain_number(length) else None
        end = one.get(check["end"])
        if (fg_plain_number(start) and fg_plain_number(end)) or (isinstance(start, str) and isinstance(end, str)):
            return (start, end)
        return None

    mine = span(record)
    if mine is None:
        return True
    for other in (state.get(check["collection"]) or {}).values():
        if not isinstance(other, dict) or other is record:
            continue
        if any([other.get(f) != record.get(f) for f in check["same"]]):
            continue
        if any([other.get(f) not in v for f, v in check["where"].items()]):
            continue
        theirs = span(other)
        alike = theirs is not None and isinstance(theirs[0], str) == isinstance(mine[0], str)
        if alike and mine[0] < theirs[1] and theirs[0] < mine[1]:
            return False
    return True


def fg_capacity(check, record, state):
    """Whether on every day of the record's span the stored records of its collection that name the same record,
    are in the `where` states and cover the day are fewer than that record's units: the records of the `units`
    collection naming it, outside the `unit_out` states."""
    target, start, end = record.get(check["same"]), record.get(check["start"]), record.get(check["end"])
    first, last = fg_day_number(start), fg_day_number(end)
    if first is None or last is None:
        return True
    units = [
        u
        for u in (state.get(check["units"]) or {}).values()
        if isinstance(u, dict)
        and u.get(check["same"]) == target
        and all([u.get(f) not in v for f, v in check["unit_out"].items()])
    ]
    booked = [
        o
        for o in (state.get(check["collection"]) or {}).values()
        if isinstance(o, dict)
        and o is not record
        and o.get(check["same"]) == target
        and all([o.get(f) in v for f, v in check["where"].items()])
        and isinstance(o.get(check["start"]), str)
        and isinstance(o.get(check["end"]), str)
    ]
    for offset in range(max(0, min(last - first, 3660))):
        day = fg_add_days(start, offset)
        if len([o for o in booked if o[check["start"]] <= day < o[check["end"]]]) >= len(units):
            return False
    return True


def fg_month_day(day, months, on):
    """The ISO date on day `on` of the month `months` months after the month of the ISO date `day` (the month's last
    day when it is shorter), or None when `day` is not one."""
    parts = day.split("-") if isinstance(day, str) else []
    if len(parts) != 3 or not all([p.isdigit() for p in parts]):
        return None
    months = int(parts[0]) * 12 + int(parts[1]) - 1 + months
    year, month = months // 12, months % 12 + 1
    following = fg_day_number("%04d-%02d-01" % (year + month // 12, month % 12 + 1))
    length = following - fg_day_number("%04d-%02d-01" % (year, month))
    return "%04d-%02d-%02d" % (year, month, min(on, length))


def fg_instalments(total, count, today, on, down, fields):
    """`count` instalments of `total`: each the total divided by the count to the cent (rounded down with `down`,
    else to the nearest), the last taking the remainder; the k-th due on day `on` of the k-th month after `today`.
    Each entry holds the keys `fields` names for its `index` (1, 2, ...), `due` date and `amount`; None when the
    total or the count is missing."""
    if not isinstance(total, (int, float)) or isinstance(total, bool):
        return None
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        return None
    cents = round(total * 100)
    each = cents // count if down else round(cents / count)
    out = []
    for k in range(1, count + 1):
        entry = {}
        if fields.get("index"):
            entry[fields["index"]] = k
        if fields.get("due"):
            entry[fields["due"]] = fg_month_day(today, k, on)
        entry[fields["amount"]] = (each if k < count else cents - each * (count - 1)) / 100
        out.append(entry)
    return out
