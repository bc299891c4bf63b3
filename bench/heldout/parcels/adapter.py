"""Linden Row Parcel Depot counter API: the real implementation behind tools.json.

Standard library only. make() -> Depot with reset(state), call(name, arguments), state().
`python adapter.py` replays trajectories.jsonl from data.json and prints calls and errors.
"""

import copy
import json
import os
import re
from decimal import ROUND_HALF_UP, Decimal

BUSINESS_DATE = "2026-03-14"
ZONES = ("LR1", "LR2", "LR3", "LR4")
SERVICES = {"economy": Decimal("0.00"), "standard": Decimal("1.50"), "express": Decimal("4.75")}
BANDS = [  # (code, max weight kg, base price)
    ("P1", Decimal("0.5"), Decimal("3.20")),
    ("P2", Decimal("2"), Decimal("4.80")),
    ("P3", Decimal("5"), Decimal("7.50")),
    ("P4", Decimal("10"), Decimal("11.90")),
    ("P5", Decimal("20"), Decimal("16.40")),
    ("P6", Decimal("30"), Decimal("22.00")),
]
TIER_DISCOUNT = {"standard": Decimal("0"), "business": Decimal("0.10")}
LABELS = ("fragile", "keep_dry", "this_way_up", "signature_required", "perishable")
MAX_LABELS = 3
STATUSES = ("received", "out_for_delivery", "returned_to_depot", "in_locker", "delivered", "collected", "cancelled")
BIKE_MAX_KG = 10
MAX_ATTEMPTS = 2
POSTCODE = re.compile(r"^(LR[0-9]) [0-9][A-Z]{2}$")
CENT = Decimal("0.01")


class Refused(Exception):
    pass


def money(d):
    return float(Decimal(d).quantize(CENT, rounding=ROUND_HALF_UP))


def dec(x):
    return Decimal(str(x))


def is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


class Depot:
    def __init__(self):
        self.s = {"customers": {}, "parcels": {}, "lockers": {}, "couriers": {}}

    def reset(self, state):
        self.s = copy.deepcopy(state)

    def state(self):
        return copy.deepcopy(self.s)

    def call(self, name, arguments):
        fn = getattr(self, "t_" + str(name), None)
        if fn is None:
            return {"ok": False, "output": "Error: unknown tool '%s'" % name}
        args = dict(arguments or {})
        try:
            return {"ok": True, "output": copy.deepcopy(fn(**args))}
        except Refused as e:
            return {"ok": False, "output": "Error: %s" % e}
        except TypeError as e:
            return {"ok": False, "output": "Error: invalid arguments: %s" % e}

    # ---- helpers
    def _customer(self, cid):
        c = self.s["customers"].get(cid)
        if c is None:
            raise Refused("customer %s not found" % cid)
        return c

    def _parcel(self, pid):
        p = self.s["parcels"].get(pid)
        if p is None:
            raise Refused("parcel %s not found" % pid)
        return p

    def _locker(self, lid):
        lk = self.s["lockers"].get(lid)
        if lk is None:
            raise Refused("locker %s not found" % lid)
        return lk

    def _courier(self, crid):
        c = self.s["couriers"].get(crid)
        if c is None:
            raise Refused("courier %s not found" % crid)
        return c

    def _log(self, p, status, note):
        p["status"] = status
        p["history"].append({"date": BUSINESS_DATE, "status": status, "note": note})

    def _quote(self, weight_kg, service, customer=None):
        if not is_number(weight_kg) or weight_kg <= 0:
            raise Refused("weight_kg must be a positive number")
        w = dec(weight_kg)
        if w > BANDS[-1][1]:
            raise Refused("parcels over 30 kg are not accepted")
        if service not in SERVICES:
            raise Refused("unknown service '%s' (economy, standard or express)" % service)
        band = next(b for b in BANDS if w <= b[1])
        base, sur = band[2], SERVICES[service]
        disc = Decimal("0")
        if customer is not None:
            disc = ((base + sur) * TIER_DISCOUNT.get(customer["tier"], Decimal("0"))).quantize(
                CENT, rounding=ROUND_HALF_UP
            )
        return {
            "band": band[0],
            "base_price": money(base),
            "service_surcharge": money(sur),
            "discount": money(disc),
            "total": money(base + sur - disc),
        }

    # ---- reads
    def t_get_customer(self, customer_id):
        return self._customer(customer_id)

    def t_get_parcel(self, parcel_id):
        return self._parcel(parcel_id)

    def t_search_parcels(
        self, sender_id=None, sender_phone=None, status=None, service=None, zone=None, courier_id=None, locker_bank=None
    ):
        if status is not None and status not in STATUSES:
            raise Refused("unknown status '%s'" % status)
        if service is not None and service not in SERVICES:
            raise Refused("unknown service '%s' (economy, standard or express)" % service)
        out = []
        for pid in sorted(self.s["parcels"]):
            p = self.s["parcels"][pid]
            if sender_id is not None and p["sender_id"] != sender_id:
                continue
            if sender_phone is not None:
                c = self.s["customers"].get(p["sender_id"])
                if c is None or c["phone"] != sender_phone:
                    continue
            if status is not None and p["status"] != status:
                continue
            if service is not None and p["service"] != service:
                continue
            if zone is not None and p["recipient_postcode"].split(" ")[0] != zone:
                continue
            if courier_id is not None and p["courier_id"] != courier_id:
                continue
            if locker_bank is not None:
                lk = self.s["lockers"].get(p["locker_id"]) if p["locker_id"] else None
                if lk is None or lk["bank"] != locker_bank:
                    continue
            out.append(
                {
                    k: p[k]
                    for k in (
                        "parcel_id",
                        "sender_id",
                        "recipient_name",
                        "recipient_postcode",
                        "weight_kg",
                        "service",
                        "status",
                    )
                }
            )
        return out

    def t_list_lockers(self, bank=None, size=None, available_only=False):
        out = []
        for lid in sorted(self.s["lockers"]):
            lk = self.s["lockers"][lid]
            if bank is not None and lk["bank"] != bank:
                continue
            if size is not None and lk["size"] != size:
                continue
            if available_only and lk["status"] != "free":
                continue
            out.append(lk)
        return out

    def t_quote_postage(self, weight_kg, service, customer_id=None):
        c = self._customer(customer_id) if customer_id is not None else None
        return self._quote(weight_kg, service, c)

    # ---- writes
    def t_create_parcel(self, sender_id, recipient_name, recipient_postcode, weight_kg, service, payment_method):
        c = self._customer(sender_id)
        if c["status"] != "active":
            raise Refused("customer %s is suspended and cannot send parcels" % sender_id)
        if not isinstance(recipient_name, str) or not recipient_name.strip():
            raise Refused("recipient_name is required")
        m = POSTCODE.match(recipient_postcode or "") if isinstance(recipient_postcode, str) else None
        if m is None:
            raise Refused("invalid postcode '%s'" % recipient_postcode)
        if m.group(1) not in ZONES:
            raise Refused("postcode %s is outside the depot's delivery area (LR1-LR4)" % recipient_postcode)
        q = self._quote(weight_kg, service, c)
        if payment_method not in ("account", "card"):
            raise Refused("payment_method must be 'account' or 'card'")
        if payment_method == "account":
            if dec(c["credit_balance"]) < dec(q["total"]):
                raise Refused(
                    "insufficient account credit: postage is %.2f, balance is %.2f" % (q["total"], c["credit_balance"])
                )
            c["credit_balance"] = money(dec(c["credit_balance"]) - dec(q["total"]))
        n = max([int(k.split("-")[1]) for k in self.s["parcels"]] + [4100]) + 1
        pid = "PX-%d" % n
        p = {
            "parcel_id": pid,
            "sender_id": sender_id,
            "recipient_name": recipient_name.strip(),
            "recipient_postcode": recipient_postcode,
            "weight_kg": weight_kg,
            "service": service,
            "labels": [],
            "postage": q["total"],
            "payment_method": payment_method,
            "status": "received",
            "locker_id": None,
            "courier_id": None,
            "delivery_attempts": 0,
            "history": [{"date": BUSINESS_DATE, "status": "received", "note": "accepted at counter"}],
        }
        self.s["parcels"][pid] = p
        c["parcels_sent"] = c.get("parcels_sent", 0) + 1
        return p

    def t_assign_courier(self, parcel_id, courier_id):
        p = self._parcel(parcel_id)
        cr = self._courier(courier_id)
        if p["status"] not in ("received", "returned_to_depot"):
            raise Refused(
                "parcel %s is %s; only received or returned_to_depot parcels can be sent out" % (parcel_id, p["status"])
            )
        if p["delivery_attempts"] >= MAX_ATTEMPTS:
            raise Refused(
                "parcel %s has had %d failed delivery attempts and must be held in a locker for collection"
                % (parcel_id, p["delivery_attempts"])
            )
        if not cr["on_shift"]:
            raise Refused("courier %s is not on shift" % courier_id)
        zone = p["recipient_postcode"].split(" ")[0]
        if cr["zone"] != zone:
            raise Refused("courier %s covers %s, parcel %s is for %s" % (courier_id, cr["zone"], parcel_id, zone))
        if cr["vehicle"] == "cargo_bike" and p["weight_kg"] > BIKE_MAX_KG:
            raise Refused("parcel %s weighs %s kg; cargo bikes carry parcels up to 10 kg" % (parcel_id, p["weight_kg"]))
        if cr["active_parcels"] >= cr["capacity"]:
            raise Refused("courier %s is at capacity (%d parcels)" % (courier_id, cr["capacity"]))
        cr["active_parcels"] += 1
        p["courier_id"] = courier_id
        self._log(p, "out_for_delivery", "assigned to courier %s" % courier_id)
        return p

    def t_record_delivery_outcome(self, parcel_id, outcome):
        p = self._parcel(parcel_id)
        if p["status"] != "out_for_delivery":
            raise Refused("parcel %s is %s, not out_for_delivery" % (parcel_id, p["status"]))
        if outcome not in ("delivered", "failed"):
            raise Refused("outcome must be 'delivered' or 'failed'")
        cr = self.s["couriers"][p["courier_id"]]
        cr["active_parcels"] = max(0, cr["active_parcels"] - 1)
        if outcome == "delivered":
            cr["completed_today"] += 1
            self._log(p, "delivered", "delivered by courier %s" % cr["courier_id"])
        else:
            p["delivery_attempts"] += 1
            p["courier_id"] = None
            self._log(p, "returned_to_depot", "delivery attempt %d failed" % p["delivery_attempts"])
        return p

    def t_store_in_locker(self, parcel_id, locker_id):
        p = self._parcel(parcel_id)
        lk = self._locker(locker_id)
        if p["status"] not in ("received", "returned_to_depot"):
            raise Refused(
                "parcel %s is %s; only received or returned_to_depot parcels can be stored" % (parcel_id, p["status"])
            )
        if lk["status"] != "free":
            raise Refused("locker %s is %s" % (locker_id, lk["status"]))
        if p["weight_kg"] > lk["max_weight_kg"]:
            raise Refused(
                "parcel %s weighs %s kg; locker %s takes up to %s kg"
                % (parcel_id, p["weight_kg"], locker_id, lk["max_weight_kg"])
            )
        lk["status"] = "occupied"
        lk["parcel_id"] = parcel_id
        p["locker_id"] = locker_id
        self._log(p, "in_locker", "stored in locker %s" % locker_id)
        return p

    def t_collect_parcel(self, parcel_id, collector_name):
        p = self._parcel(parcel_id)
        if p["status"] != "in_locker":
            raise Refused("parcel %s is %s, not in_locker" % (parcel_id, p["status"]))
        if not isinstance(collector_name, str) or collector_name.strip().lower() != p["recipient_name"].lower():
            raise Refused("collector name does not match the recipient of parcel %s" % parcel_id)
        lk = self.s["lockers"][p["locker_id"]]
        lk["status"] = "free"
        lk["parcel_id"] = None
        note = "collected from locker %s" % p["locker_id"]
        p["locker_id"] = None
        self._log(p, "collected", note)
        return p

    def t_cancel_parcel(self, parcel_id, reason):
        p = self._parcel(parcel_id)
        if p["status"] not in ("received", "returned_to_depot"):
            raise Refused(
                "parcel %s is %s; only received or returned_to_depot parcels can be cancelled"
                % (parcel_id, p["status"])
            )
        if not isinstance(reason, str) or not reason.strip():
            raise Refused("reason is required")
        refund = dec(p["postage"])
        if p["delivery_attempts"] > 0:
            refund = (refund / 2).quantize(CENT, rounding=ROUND_HALF_UP)
        credit = None
        if p["payment_method"] == "account":
            c = self.s["customers"][p["sender_id"]]
            c["credit_balance"] = money(dec(c["credit_balance"]) + refund)
            credit = c["credit_balance"]
        self._log(p, "cancelled", "cancelled: %s" % reason.strip())
        return {
            "parcel_id": parcel_id,
            "status": "cancelled",
            "refund": money(refund),
            "refunded_to": p["payment_method"],
            "credit_balance": credit,
        }

    def t_edit_handling_labels(self, parcel_id, action, label):
        p = self._parcel(parcel_id)
        if action not in ("add", "remove"):
            raise Refused("action must be 'add' or 'remove'")
        if label not in LABELS:
            raise Refused("unknown label '%s'" % label)
        if p["status"] not in ("received", "returned_to_depot", "in_locker"):
            raise Refused("labels of parcel %s cannot be changed while it is %s" % (parcel_id, p["status"]))
        if action == "add":
            if label in p["labels"]:
                raise Refused("parcel %s already has label %s" % (parcel_id, label))
            if len(p["labels"]) >= MAX_LABELS:
                raise Refused("parcel %s already has %d labels" % (parcel_id, MAX_LABELS))
            p["labels"].append(label)
        else:
            if label not in p["labels"]:
                raise Refused("parcel %s has no label %s" % (parcel_id, label))
            p["labels"].remove(label)
        return p


def make():
    return Depot()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "data.json")) as f:
        data = json.load(f)
    calls = errors = n = 0
    with open(os.path.join(here, "trajectories.jsonl")) as f:
        for line in f:
            if not line.strip():
                continue
            t = json.loads(line)
            d = make()
            d.reset(t.get("initial_state", data))
            n += 1
            for c in t["calls"]:
                r = d.call(c["name"], c["arguments"])
                calls += 1
                errors += 0 if r["ok"] else 1
    print("trajectories: %d, calls: %d, errors: %d" % (n, calls, errors))


if __name__ == "__main__":
    main()
