#!/usr/bin/env python3
"""Corrowdale Town Council bulky-waste collection desk: the real system behind tools.json.

make() returns a desk with reset(state), call(name, arguments) and state(). Running this file replays
every session of trajectories.jsonl, each from data.json, and prints the number of calls and errors.
Standard library only. The business date is fixed (BUSINESS_DATE); nothing reads the wall clock.
"""

import copy
import json
import os
import sys
from datetime import date

BUSINESS_DATE = "2026-03-16"

FREE_ITEMS_PER_COLLECTION = 3
CONCESSION_PERCENT = 50
SHORT_NOTICE_DAYS = 3  # rounds fewer than this many days ahead carry the surcharge
SHORT_NOTICE_SURCHARGE = 1000  # cents
EDIT_LOCK_DAYS = 2  # items can be changed until this many days before the round
LATE_CANCEL_DAYS = 2  # cancelling with fewer days left than this is late
LATE_CANCEL_FEE = 800  # cents
MAX_ITEMS_PER_BOOKING = 8
BALANCE_LIMIT = 4000  # cents: at or above this, no new bookings
MAX_RESCHEDULES = 2
MISSED_REPORT_WINDOW_DAYS = 7
PLACEMENTS = ("front_kerb", "driveway", "front_garden", "communal_bin_store", "rear_lane")
ACTIVE = ("requested", "scheduled")


class DeskError(Exception):
    pass


def _c(amount):
    """money (float) -> integer cents"""
    return int(round(float(amount) * 100))


def _m(cents):
    """integer cents -> money (float, 2 dp)"""
    return round(cents / 100.0, 2)


def _fmt(cents):
    return "%.2f" % (cents / 100.0)


def _days_until(iso):
    return (date.fromisoformat(iso) - date.fromisoformat(BUSINESS_DATE)).days


def _num(record_id):
    digits = "".join(ch for ch in record_id.split("-")[-1] if ch.isdigit())
    return int(digits) if digits else 0


class BulkWasteDesk:
    def __init__(self):
        self.db = {}

    # ------------------------------------------------------------------ protocol
    def reset(self, state):
        self.db = copy.deepcopy(state)

    def state(self):
        return copy.deepcopy(self.db)

    def call(self, name, arguments):
        handler = getattr(self, "tool_" + str(name), None)
        if handler is None:
            return {"ok": False, "output": "Error: unknown tool '%s'" % name}
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            return {"ok": False, "output": "Error: arguments must be an object"}
        try:
            return {"ok": True, "output": handler(dict(arguments))}
        except DeskError as exc:
            return {"ok": False, "output": "Error: %s" % exc}

    # ------------------------------------------------------------------ argument helpers
    @staticmethod
    def _str(args, key, required=True):
        value = args.get(key)
        if value is None or (isinstance(value, str) and not value.strip()):
            if required:
                raise DeskError("missing required parameter '%s'" % key)
            return None
        if not isinstance(value, str):
            raise DeskError("parameter '%s' must be a string" % key)
        return value.strip()

    @staticmethod
    def _bool(args, key, default):
        value = args.get(key, default)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise DeskError("parameter '%s' must be true or false" % key)
        return value

    @staticmethod
    def _int(args, key):
        value = args.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise DeskError("parameter '%s' must be an integer" % key)
        return value

    @staticmethod
    def _date(args, key):
        value = args.get(key)
        if value is None or value == "":
            return None
        if not isinstance(value, str):
            raise DeskError("parameter '%s' must be a date (YYYY-MM-DD)" % key)
        try:
            date.fromisoformat(value)
        except ValueError:
            raise DeskError("parameter '%s' must be a date (YYYY-MM-DD), got '%s'" % (key, value))
        return value

    # ------------------------------------------------------------------ lookups
    def _household(self, household_id):
        hh = self.db["households"].get(household_id)
        if hh is None:
            raise DeskError("household '%s' not found" % household_id)
        return hh

    def _round(self, round_id):
        rnd = self.db["rounds"].get(round_id)
        if rnd is None:
            raise DeskError("collection round '%s' not found" % round_id)
        return rnd

    def _booking(self, booking_id):
        bk = self.db["bookings"].get(booking_id)
        if bk is None:
            raise DeskError("booking '%s' not found" % booking_id)
        return bk

    def _zone_name(self, zone_id):
        zone = self.db["zones"].get(zone_id)
        return zone["name"] if zone else zone_id

    @staticmethod
    def _free_slots(rnd):
        return max(rnd["slot_capacity"] - rnd["slots_booked"], 0)

    @staticmethod
    def _remaining_free(hh):
        return max(hh["free_collections_per_year"] - hh["free_collections_used"], 0)

    def _next_id(self, collection, prefix):
        top = max([_num(k) for k in self.db[collection]] or [0])
        return "%s-%d" % (prefix, top + 1)

    # ------------------------------------------------------------------ items and prices
    def _parse_items(self, raw, first_line=1):
        if not isinstance(raw, list) or not raw:
            raise DeskError("items must be a non-empty list of {category, quantity, description}")
        parsed = []
        line = first_line
        for entry in raw:
            if not isinstance(entry, dict):
                raise DeskError("each item must be an object with category and quantity")
            code = entry.get("category")
            if not isinstance(code, str) or not code.strip():
                raise DeskError("each item needs a category code")
            code = code.strip().upper()
            cat = self.db["item_categories"].get(code)
            if cat is None:
                raise DeskError(
                    "unknown item category '%s'; see list_item_categories for the codes" % entry.get("category")
                )
            if not cat["accepted"]:
                raise DeskError(
                    "%s (%s) is not collected by the bulky-waste service. %s" % (code, cat["name"], cat["notes"])
                )
            qty = entry.get("quantity", 1)
            if isinstance(qty, bool) or not isinstance(qty, int) or qty < 1:
                raise DeskError("quantity for %s must be a whole number of at least 1" % code)
            desc = entry.get("description")
            desc = desc.strip() if isinstance(desc, str) and desc.strip() else cat["name"]
            parsed.append({"line": line, "category": code, "quantity": qty, "description": desc})
            line += 1
        return parsed

    def _check_limits(self, items):
        per_cat = {}
        for it in items:
            per_cat[it["category"]] = per_cat.get(it["category"], 0) + it["quantity"]
        for code, qty in sorted(per_cat.items()):
            cat = self.db["item_categories"][code]
            if qty > cat["max_per_booking"]:
                raise DeskError(
                    "at most %d x %s (%s) per booking; %d requested" % (cat["max_per_booking"], code, cat["name"], qty)
                )
        total = sum(it["quantity"] for it in items)
        if total > MAX_ITEMS_PER_BOOKING:
            raise DeskError(
                "a booking can hold at most %d items; this one would have %d" % (MAX_ITEMS_PER_BOOKING, total)
            )

    def _slots(self, items):
        return sum(self.db["item_categories"][it["category"]]["slots"] * it["quantity"] for it in items)

    def _price(self, hh, items, apply_free, surcharge_cents):
        cats = self.db["item_categories"]
        subtotal = 0
        handling = 0
        eligible_units = []
        for it in items:
            cat = cats[it["category"]]
            fee = _c(cat["fee"])
            subtotal += fee * it["quantity"]
            handling += _c(cat["handling_fee"]) * it["quantity"]
            if cat["allowance_eligible"]:
                eligible_units.extend([fee] * it["quantity"])
        eligible_units.sort(reverse=True)
        free_credit = sum(eligible_units[:FREE_ITEMS_PER_COLLECTION]) if apply_free else 0
        after = subtotal - free_credit
        discount = after * CONCESSION_PERCENT // 100 if hh["concession"] else 0
        total = after - discount + handling + surcharge_cents
        return {
            "items_subtotal": _m(subtotal),
            "free_collection_credit": _m(free_credit),
            "concession_discount": _m(discount),
            "handling_fees": _m(handling),
            "short_notice_surcharge": _m(surcharge_cents),
            "total": _m(total),
        }

    def _wants_free(self, hh, items, use_free):
        if not use_free or self._remaining_free(hh) <= 0:
            return False
        cats = self.db["item_categories"]
        return any(cats[it["category"]]["allowance_eligible"] for it in items)

    @staticmethod
    def _surcharge_for(rnd):
        return SHORT_NOTICE_SURCHARGE if rnd is not None and _days_until(rnd["date"]) < SHORT_NOTICE_DAYS else 0

    def _booking_view(self, bk):
        out = copy.deepcopy(bk)
        rnd = self.db["rounds"].get(bk["round_id"])
        out["collection_date"] = rnd["date"] if rnd else None
        return out

    def _check_round_bookable(self, hh, rnd):
        if rnd["zone_id"] != hh["zone_id"]:
            raise DeskError(
                "round %s serves zone %s (%s); household %s is in zone %s (%s)"
                % (
                    rnd["round_id"],
                    rnd["zone_id"],
                    self._zone_name(rnd["zone_id"]),
                    hh["household_id"],
                    hh["zone_id"],
                    self._zone_name(hh["zone_id"]),
                )
            )
        days = _days_until(rnd["date"])
        if days < 0:
            raise DeskError("round %s took place on %s" % (rnd["round_id"], rnd["date"]))
        if days == 0:
            raise DeskError("round %s runs today; bookings for a round close the day before" % rnd["round_id"])
        if rnd["status"] != "open":
            reason = rnd.get("note") or ""
            raise DeskError("round %s is %s%s" % (rnd["round_id"], rnd["status"], (": " + reason) if reason else ""))

    # ------------------------------------------------------------------ tools: reads
    def tool_find_households(self, args):
        postcode = self._str(args, "postcode", required=False)
        name = self._str(args, "name", required=False)
        street = self._str(args, "address", required=False)
        zone_id = self._str(args, "zone_id", required=False)
        if not any([postcode, name, street, zone_id]):
            raise DeskError("give at least one of postcode, name, address or zone_id")
        results = []
        for hh in self.db["households"].values():
            if postcode and hh["postcode"].replace(" ", "").upper() != postcode.replace(" ", "").upper():
                continue
            if name and name.lower() not in hh["account_holder"].lower():
                continue
            if street and street.lower() not in hh["address"].lower():
                continue
            if zone_id and hh["zone_id"] != zone_id:
                continue
            results.append(
                {
                    "household_id": hh["household_id"],
                    "account_holder": hh["account_holder"],
                    "address": hh["address"],
                    "postcode": hh["postcode"],
                    "zone_id": hh["zone_id"],
                }
            )
        results.sort(key=lambda r: r["household_id"])
        return results

    def tool_get_household(self, args):
        hh = self._household(self._str(args, "household_id"))
        out = copy.deepcopy(hh)
        out["free_collections_remaining"] = self._remaining_free(hh)
        zone = self.db["zones"].get(hh["zone_id"], {})
        out["collection_day"] = zone.get("collection_day")
        return out

    def tool_list_item_categories(self, args):
        accepted_only = self._bool(args, "accepted_only", False)
        cats = [copy.deepcopy(c) for c in self.db["item_categories"].values() if c["accepted"] or not accepted_only]
        return cats

    def tool_find_collection_rounds(self, args):
        zone_id = self._str(args, "zone_id")
        if zone_id not in self.db["zones"]:
            raise DeskError("zone '%s' not found" % zone_id)
        start = self._date(args, "from_date") or BUSINESS_DATE
        end = self._date(args, "to_date")
        min_free = self._int(args, "min_free_slots")
        out = []
        for rnd in self.db["rounds"].values():
            if rnd["zone_id"] != zone_id or rnd["date"] < start:
                continue
            if end and rnd["date"] > end:
                continue
            free = self._free_slots(rnd)
            if min_free is not None and free < min_free:
                continue
            row = copy.deepcopy(rnd)
            row["free_slots"] = free
            out.append(row)
        out.sort(key=lambda r: (r["date"], r["round_id"]))
        return out

    def tool_get_booking(self, args):
        return self._booking_view(self._booking(self._str(args, "booking_id")))

    def tool_list_household_bookings(self, args):
        hh = self._household(self._str(args, "household_id"))
        status = self._str(args, "status", required=False)
        valid = ("requested", "scheduled", "collected", "missed", "cancelled")
        if status and status not in valid:
            raise DeskError("status must be one of %s" % ", ".join(valid))
        out = []
        for bk in self.db["bookings"].values():
            if bk["household_id"] != hh["household_id"]:
                continue
            if status and bk["status"] != status:
                continue
            rnd = self.db["rounds"].get(bk["round_id"], {})
            out.append(
                {
                    "booking_id": bk["booking_id"],
                    "round_id": bk["round_id"],
                    "collection_date": rnd.get("date"),
                    "status": bk["status"],
                    "items": sum(it["quantity"] for it in bk["items"]),
                    "total": bk["price"]["total"],
                }
            )
        out.sort(key=lambda r: (r["collection_date"] or "", r["booking_id"]))
        return out

    # ------------------------------------------------------------------ tools: prices and bookings
    def tool_quote_collection(self, args):
        hh = self._household(self._str(args, "household_id"))
        items = self._parse_items(args.get("items"))
        self._check_limits(items)
        use_free = self._bool(args, "use_free_collection", True)
        round_id = self._str(args, "round_id", required=False)
        rnd = None
        if round_id:
            rnd = self._round(round_id)
            if rnd["zone_id"] != hh["zone_id"]:
                raise DeskError(
                    "round %s serves zone %s; household %s is in zone %s"
                    % (round_id, rnd["zone_id"], hh["household_id"], hh["zone_id"])
                )
        apply_free = self._wants_free(hh, items, use_free)
        price = self._price(hh, items, apply_free, self._surcharge_for(rnd))
        cats = self.db["item_categories"]
        return {
            "household_id": hh["household_id"],
            "round_id": rnd["round_id"] if rnd else None,
            "collection_date": rnd["date"] if rnd else None,
            "items": items,
            "slots_required": self._slots(items),
            "permit_required": any(cats[it["category"]]["permit_required"] for it in items),
            "free_collection_applied": apply_free,
            "free_collections_remaining_after": self._remaining_free(hh) - (1 if apply_free else 0),
            "price": price,
        }

    def tool_create_booking(self, args):
        hh = self._household(self._str(args, "household_id"))
        rnd = self._round(self._str(args, "round_id"))
        placement = self._str(args, "placement")
        if placement not in PLACEMENTS:
            raise DeskError("placement must be one of %s" % ", ".join(PLACEMENTS))
        if _c(hh["outstanding_balance"]) >= BALANCE_LIMIT:
            raise DeskError(
                "household %s has an outstanding balance of %s; no new bookings can be taken until it is below %s"
                % (hh["household_id"], _fmt(_c(hh["outstanding_balance"])), _fmt(BALANCE_LIMIT))
            )
        self._check_round_bookable(hh, rnd)
        for other in self.db["bookings"].values():
            if (
                other["household_id"] == hh["household_id"]
                and other["round_id"] == rnd["round_id"]
                and other["status"] in ACTIVE
            ):
                raise DeskError(
                    "household %s already has booking %s on round %s; add the items to that booking instead"
                    % (hh["household_id"], other["booking_id"], rnd["round_id"])
                )
        items = self._parse_items(args.get("items"))
        self._check_limits(items)
        use_free = self._bool(args, "use_free_collection", True)
        permit_id = self._str(args, "permit_id", required=False)
        cats = self.db["item_categories"]
        permit_codes = sorted({it["category"] for it in items if cats[it["category"]]["permit_required"]})
        if permit_codes:
            if not permit_id:
                raise DeskError(
                    "%s (%s) needs a waste permit; pass permit_id" % (permit_codes[0], cats[permit_codes[0]]["name"])
                )
            permit = self.db["permits"].get(permit_id)
            if permit is None:
                raise DeskError("permit '%s' not found" % permit_id)
            if permit["household_id"] != hh["household_id"]:
                raise DeskError("permit %s is not held by household %s" % (permit_id, hh["household_id"]))
            if permit["status"] != "active":
                raise DeskError("permit %s is %s" % (permit_id, permit["status"]))
            if permit["category"] not in permit_codes or len(permit_codes) > 1:
                raise DeskError("permit %s covers %s only" % (permit_id, permit["category"]))
            if not (permit["valid_from"] <= rnd["date"] <= permit["valid_until"]):
                raise DeskError(
                    "permit %s is valid %s to %s and does not cover the collection date %s"
                    % (permit_id, permit["valid_from"], permit["valid_until"], rnd["date"])
                )
        else:
            permit_id = None
        slots = self._slots(items)
        free = self._free_slots(rnd)
        if slots > free:
            raise DeskError(
                "round %s has %d free slot%s; this booking needs %d"
                % (rnd["round_id"], free, "" if free == 1 else "s", slots)
            )
        notes = self._str(args, "notes", required=False)

        apply_free = self._wants_free(hh, items, use_free)
        price = self._price(hh, items, apply_free, self._surcharge_for(rnd))
        total = _c(price["total"])
        credit = _c(hh["credit_balance"])
        payment = {"paid_from_credit": 0.0, "invoiced": 0.0}
        if total == 0:
            status, how = "scheduled", "no charge"
        elif credit >= total:
            status, how = "scheduled", "paid %s from prepaid credit" % _fmt(total)
            hh["credit_balance"] = _m(credit - total)
            payment["paid_from_credit"] = _m(total)
        else:
            status, how = "requested", "invoice raised for %s; awaiting payment" % _fmt(total)
            hh["outstanding_balance"] = _m(_c(hh["outstanding_balance"]) + total)
            payment["invoiced"] = _m(total)
        if apply_free:
            hh["free_collections_used"] += 1
            how += "; free collection used"
        rnd["slots_booked"] += slots
        booking_id = self._next_id("bookings", "BK")
        bk = {
            "booking_id": booking_id,
            "household_id": hh["household_id"],
            "round_id": rnd["round_id"],
            "status": status,
            "items": items,
            "placement": placement,
            "permit_id": permit_id,
            "notes": notes,
            "free_collection_used": apply_free,
            "price": price,
            "payment": payment,
            "reschedule_count": 0,
            "created": BUSINESS_DATE,
            "cancellation": None,
            "history": [
                {
                    "date": BUSINESS_DATE,
                    "event": "created",
                    "note": "Booked for %s (%s); %s" % (rnd["round_id"], rnd["date"], how),
                }
            ],
        }
        self.db["bookings"][booking_id] = bk
        return self._booking_view(bk)

    def _settle(self, hh, bk, delta):
        """Charge (delta > 0) or refund (delta < 0) a change in a booking's total. Returns a note."""
        pay = bk["payment"]
        if delta > 0:
            credit = _c(hh["credit_balance"])
            if credit >= delta:
                hh["credit_balance"] = _m(credit - delta)
                pay["paid_from_credit"] = _m(_c(pay["paid_from_credit"]) + delta)
                return "%s taken from prepaid credit" % _fmt(delta)
            hh["outstanding_balance"] = _m(_c(hh["outstanding_balance"]) + delta)
            pay["invoiced"] = _m(_c(pay["invoiced"]) + delta)
            return "%s added to the account balance" % _fmt(delta)
        if delta < 0:
            back = -delta
            invoiced = _c(pay["invoiced"])
            off_invoice = min(invoiced, back)
            to_credit = back - off_invoice
            if off_invoice:
                pay["invoiced"] = _m(invoiced - off_invoice)
                hh["outstanding_balance"] = _m(max(_c(hh["outstanding_balance"]) - off_invoice, 0))
            if to_credit:
                pay["paid_from_credit"] = _m(_c(pay["paid_from_credit"]) - to_credit)
                hh["credit_balance"] = _m(_c(hh["credit_balance"]) + to_credit)
            parts = []
            if off_invoice:
                parts.append("%s taken off the invoice" % _fmt(off_invoice))
            if to_credit:
                parts.append("%s refunded to prepaid credit" % _fmt(to_credit))
            return " and ".join(parts)
        return "no change to the amount due"

    def tool_update_booking_items(self, args):
        bk = self._booking(self._str(args, "booking_id"))
        add_raw = args.get("add_items")
        remove = args.get("remove_lines")
        if add_raw in (None, []) and remove in (None, []):
            raise DeskError("nothing to change: give add_items and/or remove_lines")
        if bk["status"] not in ACTIVE:
            raise DeskError(
                "booking %s is %s; items can only be changed while a booking is requested or scheduled"
                % (bk["booking_id"], bk["status"])
            )
        rnd = self._round(bk["round_id"])
        if _days_until(rnd["date"]) < EDIT_LOCK_DAYS:
            raise DeskError(
                "items on booking %s are locked: changes close %d days before the collection date (%s)"
                % (bk["booking_id"], EDIT_LOCK_DAYS, rnd["date"])
            )
        hh = self._household(bk["household_id"])
        remove = remove or []
        if not isinstance(remove, list) or any(isinstance(x, bool) or not isinstance(x, int) for x in remove):
            raise DeskError("remove_lines must be a list of line numbers")
        lines = {it["line"]: it for it in bk["items"]}
        for ln in remove:
            if ln not in lines:
                raise DeskError("booking %s has no item line %d" % (bk["booking_id"], ln))
        kept = [copy.deepcopy(it) for it in bk["items"] if it["line"] not in remove]
        next_line = max([it["line"] for it in bk["items"]] or [0]) + 1
        added = self._parse_items(add_raw, first_line=next_line) if add_raw not in (None, []) else []
        cats = self.db["item_categories"]
        for it in added:
            if cats[it["category"]]["permit_required"]:
                raise DeskError(
                    "%s (%s) needs a waste permit and cannot be added to an existing "
                    "booking; make a separate booking with the permit" % (it["category"], cats[it["category"]]["name"])
                )
        new_items = kept + added
        if not new_items:
            raise DeskError("a booking must keep at least one item; cancel the booking instead")
        self._check_limits(new_items)
        old_slots = self._slots(bk["items"])
        new_slots = self._slots(new_items)
        if new_slots - old_slots > self._free_slots(rnd):
            raise DeskError(
                "round %s has %d free slots; the change needs %d more"
                % (rnd["round_id"], self._free_slots(rnd), new_slots - old_slots)
            )
        old_total = _c(bk["price"]["total"])
        price = self._price(hh, new_items, bk["free_collection_used"], _c(bk["price"]["short_notice_surcharge"]))
        delta = _c(price["total"]) - old_total
        money_note = self._settle(hh, bk, delta)
        rnd["slots_booked"] += new_slots - old_slots
        removed_desc = ["line %d (%s)" % (ln, lines[ln]["category"]) for ln in remove]
        added_desc = ["%d x %s" % (it["quantity"], it["category"]) for it in added]
        parts = []
        if added_desc:
            parts.append("added " + ", ".join(added_desc))
        if removed_desc:
            parts.append("removed " + ", ".join(removed_desc))
        bk["items"] = new_items
        bk["price"] = price
        bk["history"].append(
            {
                "date": BUSINESS_DATE,
                "event": "items_changed",
                "note": "%s; total %s -> %s; %s"
                % ("; ".join(parts), _fmt(old_total), _fmt(_c(price["total"])), money_note),
            }
        )
        return self._booking_view(bk)

    def tool_reschedule_booking(self, args):
        bk = self._booking(self._str(args, "booking_id"))
        new_rnd = self._round(self._str(args, "new_round_id"))
        if bk["status"] not in ("requested", "scheduled", "missed"):
            raise DeskError("booking %s is %s and cannot be rescheduled" % (bk["booking_id"], bk["status"]))
        old_rnd = self._round(bk["round_id"])
        if new_rnd["round_id"] == old_rnd["round_id"]:
            raise DeskError("booking %s is already on round %s" % (bk["booking_id"], old_rnd["round_id"]))
        hh = self._household(bk["household_id"])
        from_missed = bk["status"] == "missed"
        if not from_missed:
            days_old = _days_until(old_rnd["date"])
            if days_old < 0:
                raise DeskError(
                    "round %s has already taken place; report a missed collection first" % old_rnd["round_id"]
                )
            if days_old == 0:
                raise DeskError("booking %s is on today's round and can no longer be moved" % bk["booking_id"])
            if bk["reschedule_count"] >= MAX_RESCHEDULES:
                raise DeskError(
                    "booking %s has already been rescheduled %d times; cancel it and make a new booking"
                    % (bk["booking_id"], bk["reschedule_count"])
                )
        self._check_round_bookable(hh, new_rnd)
        for other in self.db["bookings"].values():
            if (
                other["booking_id"] != bk["booking_id"]
                and other["household_id"] == hh["household_id"]
                and other["round_id"] == new_rnd["round_id"]
                and other["status"] in ACTIVE
            ):
                raise DeskError(
                    "household %s already has booking %s on round %s"
                    % (hh["household_id"], other["booking_id"], new_rnd["round_id"])
                )
        slots = self._slots(bk["items"])
        free = self._free_slots(new_rnd)
        if slots > free:
            raise DeskError(
                "round %s has %d free slot%s; this booking needs %d"
                % (new_rnd["round_id"], free, "" if free == 1 else "s", slots)
            )
        new_rnd["slots_booked"] += slots
        bk["round_id"] = new_rnd["round_id"]
        if from_missed:
            bk["status"] = "scheduled"
            bk["history"].append(
                {
                    "date": BUSINESS_DATE,
                    "event": "rebooked",
                    "note": "Rebooked after missed collection on %s; now %s (%s)"
                    % (old_rnd["date"], new_rnd["round_id"], new_rnd["date"]),
                }
            )
        else:
            old_rnd["slots_booked"] = max(old_rnd["slots_booked"] - slots, 0)
            bk["reschedule_count"] += 1
            bk["history"].append(
                {
                    "date": BUSINESS_DATE,
                    "event": "rescheduled",
                    "note": "Moved from %s (%s) to %s (%s)"
                    % (old_rnd["round_id"], old_rnd["date"], new_rnd["round_id"], new_rnd["date"]),
                }
            )
        return self._booking_view(bk)

    def tool_cancel_booking(self, args):
        bk = self._booking(self._str(args, "booking_id"))
        reason = self._str(args, "reason", required=False)
        if bk["status"] not in ACTIVE:
            raise DeskError(
                "booking %s is %s; only requested or scheduled bookings can be cancelled"
                % (bk["booking_id"], bk["status"])
            )
        rnd = self._round(bk["round_id"])
        days = _days_until(rnd["date"])
        if days < 0:
            raise DeskError(
                "round %s took place on %s; report a missed collection instead" % (rnd["round_id"], rnd["date"])
            )
        if days == 0:
            raise DeskError(
                "booking %s is on today's round; crews are already out and it can no longer be cancelled"
                % bk["booking_id"]
            )
        hh = self._household(bk["household_id"])
        late = days < LATE_CANCEL_DAYS
        pay = bk["payment"]
        invoiced = _c(pay["invoiced"])
        paid = _c(pay["paid_from_credit"])
        if invoiced:
            hh["outstanding_balance"] = _m(max(_c(hh["outstanding_balance"]) - invoiced, 0))
        fee = LATE_CANCEL_FEE if late else 0
        refund = max(paid - fee, 0)
        fee_to_balance = max(fee - paid, 0)
        if refund:
            hh["credit_balance"] = _m(_c(hh["credit_balance"]) + refund)
        if fee_to_balance:
            hh["outstanding_balance"] = _m(_c(hh["outstanding_balance"]) + fee_to_balance)
        returned = bool(bk["free_collection_used"]) and not late
        if returned:
            hh["free_collections_used"] = max(hh["free_collections_used"] - 1, 0)
        rnd["slots_booked"] = max(rnd["slots_booked"] - self._slots(bk["items"]), 0)
        bk["status"] = "cancelled"
        bk["cancellation"] = {
            "date": BUSINESS_DATE,
            "reason": reason,
            "late": late,
            "late_fee": _m(fee),
            "refunded_to_credit": _m(refund),
            "invoice_cancelled": _m(invoiced),
            "free_collection_returned": returned,
        }
        note = "Cancelled" + (": %s" % reason if reason else "")
        if refund:
            note += "; %s refunded to prepaid credit" % _fmt(refund)
        if invoiced:
            note += "; invoice for %s cancelled" % _fmt(invoiced)
        if late:
            note += "; late-cancellation fee %s" % _fmt(fee)
            if fee_to_balance:
                note += " (%s added to the account balance)" % _fmt(fee_to_balance)
        if returned:
            note += "; free collection returned"
        bk["history"].append({"date": BUSINESS_DATE, "event": "cancelled", "note": note})
        return self._booking_view(bk)

    def tool_log_report(self, args):
        rtype = self._str(args, "report_type")
        if rtype not in ("missed_collection", "fly_tipping"):
            raise DeskError("report_type must be missed_collection or fly_tipping")
        description = self._str(args, "description")
        report = {
            "report_id": None,
            "report_type": rtype,
            "status": "open",
            "created": BUSINESS_DATE,
            "booking_id": None,
            "household_id": None,
            "zone_id": None,
            "round_id": None,
            "location": None,
            "description": description,
        }
        if rtype == "missed_collection":
            bk = self._booking(self._str(args, "booking_id"))
            rnd = self._round(bk["round_id"])
            if bk["status"] == "requested":
                raise DeskError(
                    "booking %s was never confirmed (awaiting payment); crews do not collect requested bookings"
                    % bk["booking_id"]
                )
            if bk["status"] != "scheduled":
                raise DeskError(
                    "booking %s is %s; only a scheduled booking can be reported as missed"
                    % (bk["booking_id"], bk["status"])
                )
            days_since = -_days_until(rnd["date"])
            if days_since <= 0:
                raise DeskError(
                    "the collection for booking %s is due on %s and has not happened yet"
                    % (bk["booking_id"], rnd["date"])
                )
            if days_since > MISSED_REPORT_WINDOW_DAYS:
                raise DeskError(
                    "missed collections must be reported within %d days; round %s was on %s"
                    % (MISSED_REPORT_WINDOW_DAYS, rnd["round_id"], rnd["date"])
                )
            report.update(
                {
                    "booking_id": bk["booking_id"],
                    "household_id": bk["household_id"],
                    "zone_id": rnd["zone_id"],
                    "round_id": rnd["round_id"],
                }
            )
            report["report_id"] = self._next_id("reports", "RP")
            bk["status"] = "missed"
            bk["history"].append(
                {
                    "date": BUSINESS_DATE,
                    "event": "missed",
                    "note": "Missed collection reported (%s)" % report["report_id"],
                }
            )
        else:
            location = self._str(args, "location")
            zone_id = self._str(args, "zone_id", required=False)
            if zone_id and zone_id not in self.db["zones"]:
                raise DeskError("zone '%s' not found" % zone_id)
            household_id = self._str(args, "household_id", required=False)
            if household_id:
                self._household(household_id)
            report.update({"location": location, "zone_id": zone_id, "household_id": household_id})
            report["report_id"] = self._next_id("reports", "RP")
        self.db["reports"][report["report_id"]] = report
        return copy.deepcopy(report)


def make():
    return BulkWasteDesk()


def _main():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "data.json")) as fh:
        data = json.load(fh)
    desk = make()
    sessions = calls = errors = 0
    with open(os.path.join(here, "trajectories.jsonl")) as fh:
        for line in fh:
            if not line.strip():
                continue
            traj = json.loads(line)
            desk.reset(traj.get("initial_state", data))
            sessions += 1
            for c in traj["calls"]:
                calls += 1
                if not desk.call(c["name"], c["arguments"])["ok"]:
                    errors += 1
    print("%d trajectories, %d calls, %d errors" % (sessions, calls, errors))
    return 0


if __name__ == "__main__":
    sys.exit(_main())
