"""Thornacre Kennels & Daycare - front-desk system (PawLedger Desk API).

Reference implementation used as the "real system".  make() returns an object
with reset(state), call(name, arguments) and state().  The business date is
fixed (see BUSINESS_DATE); the wall clock is never read.

`python adapter.py` replays every session in trajectories.jsonl from data.json
and prints the number of calls and refusals.
"""

import copy
import json
import os
import re
import sys
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

HERE = os.path.dirname(os.path.abspath(__file__))

BUSINESS_DATE = date(2026, 3, 16)
SIZE_RANK = {"small": 1, "medium": 2, "large": 3, "giant": 4}
SUITE_CODE = {"standard": "BRD-STD", "deluxe": "BRD-DLX", "luxury": "BRD-LUX"}
PEAK_PERIODS = [
    (date(2026, 3, 28), date(2026, 4, 12)),
    (date(2026, 5, 23), date(2026, 5, 31)),
    (date(2026, 7, 18), date(2026, 8, 31)),
    (date(2026, 12, 19), date(2027, 1, 3)),
]
PEAK_SURCHARGE = Decimal("0.20")
MULTI_DOG_RATE = Decimal("0.10")
DEPOSIT_RATE = Decimal("0.25")
MAX_NIGHTS = 28
VACCINES = ("dhp", "lepto", "kennel_cough")
VACCINE_MAX_DAYS = {"dhp": 3 * 365 + 1, "lepto": 365, "kennel_cough": 365}
OPEN_TIME, CLOSE_TIME = "08:00", "18:00"
LATE_HALF_AFTER, LATE_FULL_AFTER = "12:00", "15:00"
ACTIVE_STATUSES = ("reserved", "checked_in")
GROOMING_CODES = ("GRM-BATH", "GRM-FULL")


class Refusal(Exception):
    pass


def _load_specs():
    path = os.path.join(HERE, "tools.json")
    with open(path, encoding="utf-8") as fh:
        tools = json.load(fh)
    return {t["name"]: t["parameters"] for t in tools}


TOOL_SPECS = _load_specs()


# ----------------------------------------------------------------- helpers
def D(x):
    return Decimal(str(x))


def money(x):
    return float(D(x).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def gbp(x):
    return "\u00a3%.2f" % money(x)


def parse_date(value, field):
    if not isinstance(value, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        raise Refusal(f"Invalid date '{value}' for {field}; use YYYY-MM-DD")
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise Refusal(f"Invalid date '{value}' for {field}; use YYYY-MM-DD")


def is_peak(night):
    return any(a <= night <= b for a, b in PEAK_PERIODS)


def age_months(dob, on):
    months = (on.year - dob.year) * 12 + (on.month - dob.month)
    if on.day < dob.day:
        months -= 1
    return months


_TYPE_CHECKS = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "float": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "array": lambda v: isinstance(v, list),
    "dict": lambda v: isinstance(v, dict),
    "object": lambda v: isinstance(v, dict),
}


class KennelDesk:
    def __init__(self):
        self.today = BUSINESS_DATE
        self._s = {}

    # ------------------------------------------------------------ interface
    def reset(self, state):
        self._s = copy.deepcopy(state)
        for key in ("owners", "dogs", "units", "price_list", "stays", "daycare_passes"):
            self._s.setdefault(key, {})

    def state(self):
        return copy.deepcopy(self._s)

    def call(self, name, arguments):
        snapshot = None
        try:
            if not isinstance(name, str) or name not in TOOL_SPECS:
                raise Refusal(f"Unknown tool '{name}'")
            if arguments is None:
                arguments = {}
            if not isinstance(arguments, dict):
                raise Refusal("arguments must be a JSON object")
            args = self._validate(name, arguments)
            snapshot = copy.deepcopy(self._s)
            out = getattr(self, "_t_" + name)(**args)
            return {"ok": True, "output": json.loads(json.dumps(out))}
        except Refusal as exc:
            if snapshot is not None:
                self._s = snapshot
            return {"ok": False, "output": str(exc)}
        except Exception as exc:  # never raise to the caller
            if snapshot is not None:
                self._s = snapshot
            return {"ok": False, "output": f"Internal error ({type(exc).__name__}); nothing was changed"}

    def _validate(self, name, arguments):
        spec = TOOL_SPECS[name]
        props = spec.get("properties", {})
        out = {}
        for key, value in arguments.items():
            if key not in props:
                raise Refusal(f"Unknown parameter '{key}' for {name}")
            if value is None:
                continue
            p = props[key]
            check = _TYPE_CHECKS.get(p.get("type"), lambda v: True)
            if not check(value):
                raise Refusal(f"Parameter '{key}' must be of type {p.get('type')}")
            if "enum" in p and value not in p["enum"]:
                raise Refusal(f"Parameter '{key}' must be one of: {', '.join(map(str, p['enum']))}")
            out[key] = value
        for key in spec.get("required", []):
            if key not in out:
                raise Refusal(f"Missing required parameter '{key}' for {name}")
        return out

    # --------------------------------------------------------------- lookups
    def _get(self, coll, key, label):
        rec = self._s[coll].get(key)
        if rec is None:
            raise Refusal(f"{label} {key} not found")
        return rec

    def _owner(self, oid):
        return self._get("owners", oid, "Owner")

    def _dog(self, did):
        return self._get("dogs", did, "Dog")

    def _unit(self, uid):
        return self._get("units", uid, "Unit")

    def _stay(self, sid):
        return self._get("stays", sid, "Stay")

    def _occupancy(self, st):
        ci = date.fromisoformat(st["check_in"])
        co = date.fromisoformat(st["check_out"])
        if st["status"] == "checked_in" and co < self.today:
            # an overstaying dog keeps its unit until it is checked out
            co = self.today + timedelta(days=1)
        return ci, co

    def _conflicts(self, field, value, ci, co, exclude=None):
        found = []
        for sid in sorted(self._s["stays"]):
            st = self._s["stays"][sid]
            if sid == exclude or st.get(field) != value or st["status"] not in ACTIVE_STATUSES:
                continue
            s_ci, s_co = self._occupancy(st)
            if s_ci < co and ci < s_co:
                found.append(sid)
        return found

    def _vaccine_gaps(self, dog, through):
        gaps = []
        for vac in VACCINES:
            rec = (dog.get("vaccinations") or {}).get(vac)
            if not rec or not rec.get("expiry"):
                gaps.append(f"no {vac} certificate on file")
                continue
            exp = date.fromisoformat(rec["expiry"])
            if exp < through:
                verb = "expired" if exp < self.today else "expires"
                gaps.append(f"{vac} {verb} {rec['expiry']}")
        return gaps

    def _account_block(self, owner):
        if owner.get("account_status") != "active":
            return (
                f"Account {owner['owner_id']} is {owner.get('account_status')}; "
                f"new bookings and sales are not allowed - refer the customer to the office"
            )
        if D(owner.get("outstanding_balance", 0)) > 0:
            return (
                f"Account {owner['owner_id']} has an outstanding balance of "
                f"{gbp(owner['outstanding_balance'])}; bookings and sales are blocked until it is settled"
            )
        return None

    def _dates(self, check_in, check_out):
        ci = parse_date(check_in, "check_in")
        co = parse_date(check_out, "check_out")
        if ci < self.today:
            raise Refusal(f"check_in {check_in} is in the past (today is {self.today.isoformat()})")
        if co <= ci:
            raise Refusal("check_out must be after check_in")
        nights = (co - ci).days
        if nights > MAX_NIGHTS:
            raise Refusal(
                f"Stays are limited to {MAX_NIGHTS} nights ({nights} requested); "
                f"longer stays must be arranged with the office"
            )
        return ci, co

    def _price(self, dog, suite_type, ci, co, owner):
        item = self._s["price_list"][SUITE_CODE[suite_type]]
        rate = D(item["rates"][dog["size_class"]])
        nights = (co - ci).days
        peak = sum(1 for i in range(nights) if is_peak(ci + timedelta(days=i)))
        surcharge = money(rate * PEAK_SURCHARGE * peak)
        boarding = money(rate * nights + D(surcharge))
        discount = money(D(boarding) * MULTI_DOG_RATE) if owner.get("multi_dog_discount") else 0.0
        net = money(D(boarding) - D(discount))
        deposit = money(D(net) * DEPOSIT_RATE)
        return {
            "nights": nights,
            "nightly_rate": money(rate),
            "peak_nights": peak,
            "peak_surcharge": surcharge,
            "boarding_charge": boarding,
            "discount": discount,
            "net": net,
            "deposit": deposit,
        }

    def _unit_fits(self, unit, dog):
        return SIZE_RANK[unit["size_class"]] >= SIZE_RANK[dog["size_class"]]

    def _pay(self, owner, amount):
        """Take `amount` from prepaid credit first, then card. Returns (credit, card)."""
        amount = D(money(amount))
        credit = D(money(owner.get("prepaid_credit", 0)))
        use = min(credit, amount) if amount > 0 else Decimal("0")
        owner["prepaid_credit"] = money(credit - use)
        return money(use), money(amount - use)

    def _next_id(self, coll, prefix):
        nums = [int(k.split("-")[1]) for k in self._s[coll] if k.startswith(prefix + "-")]
        return f"{prefix}-{max(nums) + 1 if nums else 1}"

    def _stay_view(self, st):
        return copy.deepcopy(st)

    def _history(self, st, event, detail):
        st.setdefault("history", []).append({"date": self.today.isoformat(), "event": event, "detail": detail})

    def _extra_line(self, st, dog, item, quantity, note=None):
        if "rates" in item:
            unit_price = D(item["rates"][dog["size_class"]])
        else:
            unit_price = D(item["price"])
        nums = [int(l["line_id"].split("-")[1]) for l in st.get("extras", [])]
        line = {
            "line_id": f"EX-{max(nums) + 1 if nums else 1}",
            "code": item["code"],
            "description": item["description"],
            "quantity": quantity,
            "unit_price": money(unit_price),
            "amount": money(unit_price * quantity),
            "added_on": self.today.isoformat(),
        }
        if note:
            line["note"] = note
        st.setdefault("extras", []).append(line)
        return line

    # ------------------------------------------------------------------ tools
    def _t_search_owners(self, query):
        q = query.strip().lower()
        if len(q) < 2:
            raise Refusal("query must contain at least 2 characters")
        digits = re.sub(r"\D", "", q)
        results = []
        for oid in sorted(self._s["owners"]):
            o = self._s["owners"][oid]
            dogs = [self._s["dogs"][d] for d in o.get("dog_ids", []) if d in self._s["dogs"]]
            hay = [
                o.get("name", ""),
                o.get("email", ""),
                o.get("address", {}).get("postcode", ""),
                o.get("address", {}).get("town", ""),
            ] + [d.get("name", "") for d in dogs]
            hit = any(q in h.lower() for h in hay)
            if not hit and len(digits) >= 4 and len(digits) == len(re.sub(r"[\s\-\+\(\)]", "", q)):
                hit = digits in re.sub(r"\D", "", o.get("phone", ""))
            if hit:
                rec = copy.deepcopy(o)
                rec["dogs"] = [
                    {"dog_id": d["dog_id"], "name": d["name"], "breed": d["breed"], "size_class": d["size_class"]}
                    for d in dogs
                ]
                results.append(rec)
        return {"count": len(results), "owners": results}

    def _t_get_dog(self, dog_id):
        dog = self._dog(dog_id)
        rec = copy.deepcopy(dog)
        owner = self._s["owners"].get(dog.get("owner_id"), {})
        rec["owner_name"] = owner.get("name")
        rec["vaccinations_current"] = not self._vaccine_gaps(dog, self.today)
        return rec

    def _t_list_units(
        self, size_class=None, suite_type=None, check_in=None, check_out=None, include_out_of_service=False
    ):
        if (check_in is None) != (check_out is None):
            raise Refusal("check_in and check_out must be given together")
        ci = co = None
        if check_in is not None:
            ci = parse_date(check_in, "check_in")
            co = parse_date(check_out, "check_out")
            if co <= ci:
                raise Refusal("check_out must be after check_in")
        units = []
        for uid in sorted(self._s["units"]):
            u = self._s["units"][uid]
            if size_class and SIZE_RANK[u["size_class"]] < SIZE_RANK[size_class]:
                continue
            if suite_type and u["suite_type"] != suite_type:
                continue
            if u["status"] != "available" and not include_out_of_service:
                continue
            if ci is not None and self._conflicts("unit_id", uid, ci, co):
                continue
            rec = copy.deepcopy(u)
            here = [
                sid
                for sid in sorted(self._s["stays"])
                if self._s["stays"][sid]["unit_id"] == uid and self._s["stays"][sid]["status"] == "checked_in"
            ]
            rec["in_residence"] = here[0] if here else None
            units.append(rec)
        return {"count": len(units), "units": units}

    def _t_list_stays(self, owner_id=None, dog_id=None, unit_id=None, status=None, date=None):
        if owner_id is not None:
            self._owner(owner_id)
        if dog_id is not None:
            self._dog(dog_id)
        if unit_id is not None:
            self._unit(unit_id)
        on = parse_date(date, "date") if date is not None else None
        rows = []
        for sid, st in self._s["stays"].items():
            if owner_id and st["owner_id"] != owner_id:
                continue
            if dog_id and st["dog_id"] != dog_id:
                continue
            if unit_id and st["unit_id"] != unit_id:
                continue
            if status and st["status"] != status:
                continue
            if on is not None:
                if st["status"] == "cancelled":
                    continue
                ci, co = self._occupancy(st)
                if st["status"] == "checked_out" and st.get("checked_out_on"):
                    co = date_fromiso(st["checked_out_on"])
                if not (ci <= on <= co):
                    continue
            rows.append(st)
        rows.sort(key=lambda s: (s["check_in"], s["stay_id"]))
        return {"count": len(rows), "stays": [self._stay_view(s) for s in rows]}

    def _t_quote_stay(self, dog_id, suite_type, check_in, check_out):
        dog = self._dog(dog_id)
        owner = self._owner(dog["owner_id"])
        ci, co = self._dates(check_in, check_out)
        p = self._price(dog, suite_type, ci, co, owner)
        warnings = []
        gaps = self._vaccine_gaps(dog, co - timedelta(days=1))
        if gaps:
            warnings.append(
                f"Vaccinations not valid through the last night ({(co - timedelta(days=1)).isoformat()}): "
                + "; ".join(gaps)
            )
        block = self._account_block(owner)
        if block:
            warnings.append(block)
        avail = []
        for uid in sorted(self._s["units"]):
            u = self._s["units"][uid]
            if (
                u["suite_type"] == suite_type
                and u["status"] == "available"
                and self._unit_fits(u, dog)
                and not self._conflicts("unit_id", uid, ci, co)
            ):
                avail.append(uid)
        if not avail:
            warnings.append(f"No {suite_type} unit suitable for a {dog['size_class']} dog is free for these dates")
        if self._conflicts("dog_id", dog_id, ci, co):
            warnings.append(f"{dog['name']} already has a stay over some of these nights")
        return {
            "dog_id": dog_id,
            "suite_type": suite_type,
            "size_class": dog["size_class"],
            "check_in": check_in,
            "check_out": check_out,
            "nights": p["nights"],
            "nightly_rate": p["nightly_rate"],
            "peak_nights": p["peak_nights"],
            "peak_surcharge": p["peak_surcharge"],
            "boarding_charge": p["boarding_charge"],
            "multi_dog_discount": p["discount"],
            "boarding_after_discount": p["net"],
            "deposit_due": p["deposit"],
            "available_units": avail,
            "warnings": warnings,
        }

    def _t_create_stay(self, dog_id, unit_id, check_in, check_out, notes=None):
        dog = self._dog(dog_id)
        unit = self._unit(unit_id)
        ci, co = self._dates(check_in, check_out)
        owner = self._owner(dog["owner_id"])
        block = self._account_block(owner)
        if block:
            raise Refusal(block)
        if unit["status"] != "available":
            raise Refusal(f"Unit {unit_id} is out of service and cannot be booked")
        if not self._unit_fits(unit, dog):
            raise Refusal(
                f"Unit {unit_id} ({unit['size_class']}) cannot take {dog_id} {dog['name']} ({dog['size_class']})"
            )
        last_night = co - timedelta(days=1)
        gaps = self._vaccine_gaps(dog, last_night)
        if gaps:
            raise Refusal(
                f"Dog {dog_id} ({dog['name']}) is not fully vaccinated for this stay: "
                + "; ".join(gaps)
                + f" (needed through {last_night.isoformat()})"
            )
        clash = self._conflicts("unit_id", unit_id, ci, co)
        if clash:
            raise Refusal(f"Unit {unit_id} is already booked for an overlapping stay ({', '.join(clash)})")
        clash = self._conflicts("dog_id", dog_id, ci, co)
        if clash:
            raise Refusal(f"Dog {dog_id} ({dog['name']}) already has a stay over these nights ({', '.join(clash)})")
        p = self._price(dog, unit["suite_type"], ci, co, owner)
        from_credit, by_card = self._pay(owner, p["deposit"])
        sid = self._next_id("stays", "ST")
        st = {
            "stay_id": sid,
            "owner_id": owner["owner_id"],
            "dog_id": dog_id,
            "unit_id": unit_id,
            "suite_type": unit["suite_type"],
            "check_in": check_in,
            "check_out": check_out,
            "nights": p["nights"],
            "status": "reserved",
            "nightly_rate": p["nightly_rate"],
            "peak_nights": p["peak_nights"],
            "boarding_charge": p["boarding_charge"],
            "discount": p["discount"],
            "extras": [],
            "fees": [],
            "deposit": {
                "amount": p["deposit"],
                "paid_from_credit": from_credit,
                "paid_by_card": by_card,
                "status": "held",
                "refunded": 0.0,
            },
            "medication_instructions": None,
            "notes": notes or "",
            "created_on": self.today.isoformat(),
            "checked_in_on": None,
            "checked_out_on": None,
            "invoice": None,
            "cancellation": None,
            "history": [],
        }
        self._history(
            st,
            "created",
            f"Booked {unit_id}, {p['nights']} night(s); deposit {gbp(p['deposit'])} "
            f"(credit {gbp(from_credit)}, card {gbp(by_card)})",
        )
        self._s["stays"][sid] = st
        return self._stay_view(st)

    def _t_check_in_stay(self, stay_id, medication_instructions=None):
        st = self._stay(stay_id)
        if st["status"] != "reserved":
            raise Refusal(f"Stay {stay_id} cannot be checked in: status is {st['status']}")
        ci = date.fromisoformat(st["check_in"])
        if ci > self.today:
            raise Refusal(
                f"Stay {stay_id} is booked to arrive on {st['check_in']}; early check-in is not "
                f"possible (today is {self.today.isoformat()})"
            )
        if ci < self.today:
            raise Refusal(
                f"Stay {stay_id} was due on {st['check_in']} and was not checked in (no-show); "
                f"cancel it and make a new booking"
            )
        unit = self._unit(st["unit_id"])
        if unit["status"] != "available":
            raise Refusal(f"Unit {unit['unit_id']} is out of service; ask the office to re-allocate the stay")
        co = date.fromisoformat(st["check_out"])
        occupied = [
            sid
            for sid in sorted(self._s["stays"])
            if sid != stay_id
            and self._s["stays"][sid]["unit_id"] == st["unit_id"]
            and self._s["stays"][sid]["status"] == "checked_in"
        ]
        if occupied:
            raise Refusal(f"Unit {st['unit_id']} is still occupied by stay {occupied[0]} (not yet checked out)")
        dog = self._dog(st["dog_id"])
        last_night = co - timedelta(days=1)
        gaps = self._vaccine_gaps(dog, last_night)
        if gaps:
            raise Refusal(
                f"Dog {dog['dog_id']} ({dog['name']}) cannot be checked in: "
                + "; ".join(gaps)
                + f" (must be valid through {last_night.isoformat()}); record an updated certificate first"
            )
        instr = (medication_instructions or "").strip()
        if dog.get("needs_medication") and not instr:
            raise Refusal(
                f"Dog {dog['dog_id']} ({dog['name']}) needs medication; medication_instructions "
                f"are required at check-in"
            )
        if instr:
            st["medication_instructions"] = instr
        if dog.get("needs_medication") and not any(l["code"] == "MED-ADMIN" for l in st.get("extras", [])):
            line = self._extra_line(st, dog, self._s["price_list"]["MED-ADMIN"], st["nights"])
            self._history(
                st,
                "extra_added",
                f"{line['line_id']} MED-ADMIN x{line['quantity']} {gbp(line['amount'])} (added at check-in)",
            )
        st["status"] = "checked_in"
        st["checked_in_on"] = self.today.isoformat()
        self._history(st, "checked_in", f"Checked in to {st['unit_id']}")
        return self._stay_view(st)

    def _t_check_out_stay(self, stay_id, departure_time):
        if not re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d", departure_time):
            raise Refusal("departure_time must be HH:MM (24-hour clock)")
        st = self._stay(stay_id)
        if st["status"] != "checked_in":
            if st["status"] == "reserved":
                raise Refusal(f"Stay {stay_id} has not been checked in (status: reserved)")
            if st["status"] == "checked_out":
                raise Refusal(f"Stay {stay_id} was already checked out on {st.get('checked_out_on')}")
            raise Refusal(f"Stay {stay_id} is {st['status']}")
        if not (OPEN_TIME <= departure_time <= CLOSE_TIME):
            raise Refusal(f"Collections are only possible between {OPEN_TIME} and {CLOSE_TIME}")
        owner = self._owner(st["owner_id"])
        co = date.fromisoformat(st["check_out"])
        rate = D(st["nightly_rate"])
        today = self.today.isoformat()
        fees = st.setdefault("fees", [])
        if self.today > co:
            n = (self.today - co).days
            fees.append(
                {
                    "code": "EXTRA-NIGHT",
                    "description": f"Overstay: {n} additional night(s)",
                    "quantity": n,
                    "unit_price": money(rate),
                    "amount": money(rate * n),
                    "date": today,
                }
            )
        if self.today >= co and departure_time > LATE_HALF_AFTER:
            if departure_time > LATE_FULL_AFTER:
                fees.append(
                    {
                        "code": "LATE-FULL",
                        "description": "Late check-out after 15:00 (full night)",
                        "quantity": 1,
                        "unit_price": money(rate),
                        "amount": money(rate),
                        "date": today,
                    }
                )
            else:
                half = money(rate / 2)
                fees.append(
                    {
                        "code": "LATE-HALF",
                        "description": "Late check-out 12:01-15:00 (half night)",
                        "quantity": 1,
                        "unit_price": half,
                        "amount": half,
                        "date": today,
                    }
                )
        if self.today < co:
            unused = (co - self.today).days
            self._history(st, "early_departure", f"Left {unused} night(s) early; booked nights charged in full")
        extras_total = money(sum(D(l["amount"]) for l in st.get("extras", [])))
        fees_total = money(sum(D(f["amount"]) for f in fees))
        total = money(D(st["boarding_charge"]) - D(st["discount"]) + D(extras_total) + D(fees_total))
        deposit = D(st["deposit"]["amount"]) if st["deposit"]["status"] == "held" else Decimal("0")
        balance = max(Decimal("0"), D(total) - deposit)
        from_credit, by_card = self._pay(owner, balance)
        st["deposit"]["status"] = "applied"
        st["invoice"] = {
            "invoice_no": "INV-" + stay_id.split("-")[1],
            "issued_on": today,
            "departure_time": departure_time,
            "boarding_charge": st["boarding_charge"],
            "discount": st["discount"],
            "extras_total": extras_total,
            "fees_total": fees_total,
            "total": total,
            "deposit_applied": money(deposit),
            "balance_due": money(balance),
            "paid_from_credit": from_credit,
            "paid_by_card": by_card,
        }
        st["status"] = "checked_out"
        st["checked_out_on"] = today
        self._history(
            st,
            "checked_out",
            f"Collected {departure_time}; total {gbp(total)}, credit {gbp(from_credit)}, card {gbp(by_card)}",
        )
        return self._stay_view(st)

    def _t_cancel_stay(self, stay_id, reason=None):
        st = self._stay(stay_id)
        if st["status"] == "checked_in":
            raise Refusal(f"Stay {stay_id} is checked in and cannot be cancelled; check the dog out instead")
        if st["status"] in ("cancelled", "checked_out"):
            raise Refusal(f"Stay {stay_id} is already {st['status'].replace('_', ' ')}")
        owner = self._owner(st["owner_id"])
        notice = max(0, (date.fromisoformat(st["check_in"]) - self.today).days)
        dep = D(st["deposit"]["amount"]) if st["deposit"]["status"] == "held" else Decimal("0")
        if notice >= 14:
            kept, dstatus = Decimal("0"), "refunded"
        elif notice >= 7:
            kept, dstatus = D(money(dep / 2)), "part_refunded"
        else:
            kept, dstatus = dep, "forfeited"
        refund = money(dep - kept)
        owner["prepaid_credit"] = money(D(owner.get("prepaid_credit", 0)) + D(refund))
        if kept > 0:
            st.setdefault("fees", []).append(
                {
                    "code": "CANCEL-FEE",
                    "description": f"Cancellation with {notice} day(s) notice",
                    "quantity": 1,
                    "unit_price": money(kept),
                    "amount": money(kept),
                    "date": self.today.isoformat(),
                }
            )
        st["deposit"]["status"] = dstatus
        st["deposit"]["refunded"] = refund
        st["status"] = "cancelled"
        st["cancellation"] = {
            "cancelled_on": self.today.isoformat(),
            "notice_days": notice,
            "fee_retained": money(kept),
            "refunded_to_credit": refund,
            "reason": reason or "",
        }
        self._history(
            st,
            "cancelled",
            f"{notice} day(s) notice; kept {gbp(kept)}, "
            f"refunded {gbp(refund)} to credit" + (f"; reason: {reason}" if reason else ""),
        )
        return {
            "stay": self._stay_view(st),
            "notice_days": notice,
            "fee_retained": money(kept),
            "refunded_to_credit": refund,
            "owner_prepaid_credit": owner["prepaid_credit"],
        }

    def _t_add_stay_extra(self, stay_id, code, quantity=1, note=None):
        st = self._stay(stay_id)
        if st["status"] not in ACTIVE_STATUSES:
            raise Refusal(f"Extras can only be added to reserved or checked-in stays ({stay_id} is {st['status']})")
        item = self._s["price_list"].get(code)
        if item is None:
            raise Refusal(f"Unknown price code '{code}'")
        if item.get("category") != "extra":
            raise Refusal(f"'{code}' is not a stay extra")
        if quantity < 1:
            raise Refusal("quantity must be at least 1")
        dog = self._dog(st["dog_id"])
        if code == "MED-ADMIN" and not dog.get("needs_medication"):
            raise Refusal(
                f"Dog {dog['dog_id']} ({dog['name']}) is not flagged as needing medication; "
                f"the office must update the dog's record first"
            )
        if item.get("unit") == "per_night" and quantity > st["nights"]:
            raise Refusal(
                f"{code} is charged per night; quantity {quantity} exceeds the {st['nights']} "
                f"night(s) of stay {stay_id}"
            )
        if code in GROOMING_CODES:
            existing = [l for l in st.get("extras", []) if l["code"] in GROOMING_CODES]
            if existing:
                raise Refusal(
                    f"Stay {stay_id} already has a grooming service booked "
                    f"({existing[0]['code']}, line {existing[0]['line_id']})"
                )
            if quantity != 1:
                raise Refusal("Grooming services are limited to one per stay (quantity 1)")
        line = self._extra_line(st, dog, item, quantity, note)
        self._history(st, "extra_added", f"{line['line_id']} {code} x{quantity} {gbp(line['amount'])}")
        return self._stay_view(st)

    def _t_update_vaccination(self, dog_id, vaccine, expiry_date, vet_practice=None):
        dog = self._dog(dog_id)
        exp = parse_date(expiry_date, "expiry_date")
        if exp <= self.today:
            raise Refusal(f"expiry_date {expiry_date} is not in the future; an expired certificate cannot be recorded")
        vacs = dog.setdefault("vaccinations", {})
        cur = vacs.get(vaccine) or {}
        if cur.get("expiry") and date.fromisoformat(cur["expiry"]) >= exp:
            raise Refusal(
                f"{dog_id} ({dog['name']}) already has {vaccine} valid until {cur['expiry']}; "
                f"the new expiry must be later"
            )
        if (exp - self.today).days > VACCINE_MAX_DAYS[vaccine]:
            limit = "3 years" if vaccine == "dhp" else "12 months"
            raise Refusal(f"expiry_date {expiry_date} is more than {limit} ahead; check the certificate")
        vacs[vaccine] = {
            "expiry": expiry_date,
            "verified_on": self.today.isoformat(),
            "vet_practice": vet_practice or cur.get("vet_practice") or "",
        }
        return self._t_get_dog(dog_id)

    def _t_buy_daycare_pass(self, dog_id, pass_type):
        dog = self._dog(dog_id)
        owner = self._owner(dog["owner_id"])
        block = self._account_block(owner)
        if block:
            raise Refusal(block)
        gaps = self._vaccine_gaps(dog, self.today)
        if gaps:
            raise Refusal(f"Dog {dog_id} ({dog['name']}) cannot attend daycare: " + "; ".join(gaps))
        if dog.get("temperament") == "reactive":
            raise Refusal(f"Dog {dog_id} ({dog['name']}) is recorded as reactive and is not eligible for group daycare")
        months = age_months(date.fromisoformat(dog["date_of_birth"]), self.today)
        if months >= 12 and not dog.get("neutered"):
            raise Refusal(
                f"Dog {dog_id} ({dog['name']}) is {months} months old and not neutered; "
                f"daycare is for neutered dogs from 12 months"
            )
        for pid in sorted(self._s["daycare_passes"]):
            p = self._s["daycare_passes"][pid]
            if (
                p["dog_id"] == dog_id
                and p["status"] == "active"
                and p["visits_used"] < p["visits_total"]
                and date.fromisoformat(p["expires_on"]) >= self.today
            ):
                raise Refusal(
                    f"Dog {dog_id} ({dog['name']}) already has an active pass {pid} with "
                    f"{p['visits_total'] - p['visits_used']} visit(s) left until {p['expires_on']}"
                )
        item = self._s["price_list"][pass_type]
        price = money(item["price"])
        from_credit, by_card = self._pay(owner, price)
        pid = self._next_id("daycare_passes", "DP")
        rec = {
            "pass_id": pid,
            "owner_id": owner["owner_id"],
            "dog_id": dog_id,
            "pass_type": pass_type,
            "visits_total": item["visits"],
            "visits_used": 0,
            "price_paid": price,
            "paid_from_credit": from_credit,
            "paid_by_card": by_card,
            "purchased_on": self.today.isoformat(),
            "expires_on": (self.today + timedelta(days=item["valid_days"])).isoformat(),
            "status": "active",
            "visit_log": [],
        }
        self._s["daycare_passes"][pid] = rec
        return {"pass": copy.deepcopy(rec), "owner_prepaid_credit": owner["prepaid_credit"]}


def date_fromiso(s):
    return date.fromisoformat(s)


def make():
    return KennelDesk()


def _main():
    with open(os.path.join(HERE, "data.json"), encoding="utf-8") as fh:
        data = json.load(fh)
    path = os.path.join(HERE, "trajectories.jsonl")
    sessions = calls = errors = 0
    desk = make()
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            traj = json.loads(line)
            desk.reset(data)
            sessions += 1
            for c in traj["calls"]:
                res = desk.call(c["name"], c.get("arguments", {}))
                calls += 1
                if not res["ok"]:
                    errors += 1
    print(f"{sessions} trajectories, {calls} calls, {errors} errors ({100.0 * errors / max(calls, 1):.1f}% refused)")
    return 0


if __name__ == "__main__":
    sys.exit(_main())
