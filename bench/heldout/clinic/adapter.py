"""PawPoint Clinic appointment API: the real implementation behind openapi.json (MIT, written for forgegym).

make() -> Clinic with reset(state), call(name, arguments) -> {"ok": bool, "output": JSON value or str},
state() -> dict in the layout of data.json. Pure standard library, deterministic.
Self-test: python adapter.py  (replays every trajectory from data.json and prints counts).
"""

import copy
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

SERVICE_PRICES = {
    "vaccine_rabies": 28.0,
    "vaccine_dhpp": 32.0,
    "vaccine_fvrcp": 30.0,
    "nail_trim": 15.0,
    "microchip": 45.0,
    "bloodwork": 95.0,
    "skin_scraping": 60.0,
    "xray": 140.0,
    "dental_cleaning": 180.0,
    "ecg": 120.0,
}
SERVICE_SPECIALTY = {"dental_cleaning": "dentistry", "ecg": "cardiology", "xray": "surgery"}
SERVICE_SPECIES = {"vaccine_dhpp": "dog", "vaccine_fvrcp": "cat"}
EXOTIC_SPECIES = {"rabbit", "bird", "ferret", "reptile"}
MAX_SERVICES = 4
MAX_ACTIVE_PER_OWNER = 3
LATE_CANCEL_FEE = 15.0
ACTIVE = ("booked", "confirmed")


class ClinicError(Exception):
    """A refused request; its message is the error text."""


def _money(x):
    return round(float(x) + 0.0, 2)


class Clinic:
    """The clinic's API over one in-memory state."""

    def __init__(self):
        self.data = {"owners": {}, "vets": {}, "slots": {}, "appointments": {}}
        self.ops = {
            "getOwner": self.get_owner,
            "findOwners": self.find_owners,
            "getAppointment": self.get_appointment,
            "listAppointments": self.list_appointments,
            "searchAvailableSlots": self.search_slots,
            "bookAppointment": self.book,
            "confirmAppointment": self.confirm,
            "cancelAppointment": self.cancel,
            "completeAppointment": self.complete,
            "addAppointmentService": self.add_service,
            "removeAppointmentService": self.remove_service,
            "getVisitQuote": self.quote,
        }

    # ----- protocol -----
    def reset(self, state):
        """Start from a deep copy of `state` (data.json layout)."""
        self.data = copy.deepcopy(state)

    def state(self):
        """The whole state, deep-copied."""
        return copy.deepcopy(self.data)

    def call(self, name, arguments):
        """Run one operation; errors come back as {"ok": False, "output": "Error: ..."}."""
        op = self.ops.get(name)
        if op is None:
            return {"ok": False, "output": f"Error: unknown operation {name}"}
        try:
            out = op(dict(arguments or {}))
        except ClinicError as e:
            return {"ok": False, "output": f"Error: {e}"}
        return {"ok": True, "output": copy.deepcopy(out)}

    # ----- helpers -----
    @staticmethod
    def _arg(args, key, required=True, kind=str):
        val = args.get(key)
        if val is None:
            if required:
                raise ClinicError(f"missing required parameter '{key}'")
            return None
        if kind is str and not isinstance(val, str):
            raise ClinicError(f"parameter '{key}' must be a string")
        if kind is list and not (isinstance(val, list) and all(isinstance(v, str) for v in val)):
            raise ClinicError(f"parameter '{key}' must be an array of strings")
        return val

    def _get(self, coll, key, label):
        rec = self.data[coll].get(key)
        if rec is None:
            raise ClinicError(f"{label} {key} not found")
        return rec

    def _appointment(self, args):
        return self._get("appointments", self._arg(args, "appointment_id"), "appointment")

    def _pet(self, owner, pet_name):
        for pet in owner["pets"]:
            if pet["name"] == pet_name:
                return pet
        raise ClinicError(f"owner {owner['owner_id']} has no pet named {pet_name}")

    def _check_service(self, code, vet, pet):
        if code not in SERVICE_PRICES:
            raise ClinicError(f"unknown service code {code}")
        spec = SERVICE_SPECIALTY.get(code)
        if spec and spec not in vet["specialties"]:
            raise ClinicError(f"service {code} requires a vet with specialty {spec}; {vet['vet_id']} has none")
        species = SERVICE_SPECIES.get(code)
        if species and pet["species"] != species:
            raise ClinicError(f"service {code} is only for species {species}, not {pet['species']}")

    def _transition(self, appt, allowed, new, note):
        if appt["status"] not in allowed:
            raise ClinicError(
                f"appointment {appt['appointment_id']} is {appt['status']}; "
                f"it can be {new} only when {' or '.join(allowed)}"
            )
        appt["status"] = new
        appt["history"].append({"status": new, "note": note or ""})

    def _lines(self, appt):
        vet = self.data["vets"][appt["vet_id"]]
        lines = [{"code": "consultation", "amount": _money(vet["consult_fee"])}]
        lines += [{"code": c, "amount": _money(SERVICE_PRICES[c])} for c in appt["services"]]
        subtotal = _money(sum(line["amount"] for line in lines))
        credit = self.data["owners"][appt["owner_id"]]["credit_balance"]
        applied = _money(max(0.0, min(credit, subtotal)))
        return lines, subtotal, applied

    # ----- reads -----
    def get_owner(self, args):
        return self._get("owners", self._arg(args, "owner_id"), "owner")

    def find_owners(self, args):
        name = self._arg(args, "name", False)
        email = self._arg(args, "email", False)
        phone = self._arg(args, "phone", False)
        if name is None and email is None and phone is None:
            raise ClinicError("give at least one of name, email, phone")
        out = []
        for oid in sorted(self.data["owners"]):
            o = self.data["owners"][oid]
            if name is not None and name.strip().lower() not in o["name"].lower():
                continue
            if email is not None and email.strip().lower() != o["email"].lower():
                continue
            if phone is not None and phone.strip() != o["phone"]:
                continue
            out.append(o)
        return out

    def get_appointment(self, args):
        return self._appointment(args)

    def list_appointments(self, args):
        f = {k: self._arg(args, k, False) for k in ("owner_id", "vet_id", "status", "date")}
        if all(v is None for v in f.values()):
            raise ClinicError("give at least one of owner_id, vet_id, status, date")
        out = []
        for aid in sorted(self.data["appointments"]):
            a = self.data["appointments"][aid]
            slot = self.data["slots"].get(a["slot_id"], {})
            if f["owner_id"] is not None and a["owner_id"] != f["owner_id"]:
                continue
            if f["vet_id"] is not None and a["vet_id"] != f["vet_id"]:
                continue
            if f["status"] is not None and a["status"] != f["status"]:
                continue
            if f["date"] is not None and slot.get("date") != f["date"]:
                continue
            out.append(a)
        return out

    def search_slots(self, args):
        f = {k: self._arg(args, k, False) for k in ("specialty", "city", "date", "vet_id")}
        out = []
        for sid, s in self.data["slots"].items():
            vet = self.data["vets"].get(s["vet_id"])
            if s["status"] != "open" or vet is None:
                continue
            if f["specialty"] is not None and f["specialty"] not in vet["specialties"]:
                continue
            if f["city"] is not None and f["city"].lower() != vet["clinic_city"].lower():
                continue
            if f["date"] is not None and s["date"] != f["date"]:
                continue
            if f["vet_id"] is not None and s["vet_id"] != f["vet_id"]:
                continue
            out.append(
                {
                    "slot_id": sid,
                    "vet_id": vet["vet_id"],
                    "vet_name": vet["name"],
                    "specialties": list(vet["specialties"]),
                    "clinic_city": vet["clinic_city"],
                    "date": s["date"],
                    "start": s["start"],
                    "duration_min": s["duration_min"],
                }
            )
        out.sort(key=lambda r: (r["date"], r["start"], r["slot_id"]))
        return out

    def quote(self, args):
        appt = self._appointment(args)
        if appt["status"] not in ACTIVE:
            raise ClinicError(
                f"appointment {appt['appointment_id']} is {appt['status']}; "
                "quotes are given only for booked or confirmed appointments"
            )
        lines, subtotal, applied = self._lines(appt)
        return {
            "appointment_id": appt["appointment_id"],
            "lines": lines,
            "subtotal": subtotal,
            "credit_applied": applied,
            "amount_due": _money(subtotal - applied),
        }

    # ----- writes -----
    def book(self, args):
        owner = self._get("owners", self._arg(args, "owner_id"), "owner")
        pet = self._pet(owner, self._arg(args, "pet_name"))
        slot = self._get("slots", self._arg(args, "slot_id"), "slot")
        reason = self._arg(args, "reason")
        services = self._arg(args, "services", False, list) or []
        if slot["status"] != "open":
            raise ClinicError(f"slot {slot['slot_id']} is {slot['status']}, not open")
        vet = self.data["vets"][slot["vet_id"]]
        if pet["species"] in EXOTIC_SPECIES and "exotics" not in vet["specialties"]:
            raise ClinicError(f"{pet['name']} is a {pet['species']}; book a vet with specialty exotics")
        active = [
            a
            for a in self.data["appointments"].values()
            if a["owner_id"] == owner["owner_id"] and a["status"] in ACTIVE
        ]
        if len(active) >= MAX_ACTIVE_PER_OWNER:
            raise ClinicError(f"owner {owner['owner_id']} already has {MAX_ACTIVE_PER_OWNER} active appointments")
        if len(set(services)) != len(services):
            raise ClinicError("services must not repeat")
        if len(services) > MAX_SERVICES:
            raise ClinicError(f"at most {MAX_SERVICES} services per appointment")
        for code in services:
            self._check_service(code, vet, pet)
        nums = [int(k.split("-")[1]) for k in self.data["appointments"]] or [5000]
        aid = f"APT-{max(nums) + 1}"
        appt = {
            "appointment_id": aid,
            "owner_id": owner["owner_id"],
            "pet_name": pet["name"],
            "vet_id": vet["vet_id"],
            "slot_id": slot["slot_id"],
            "reason": reason,
            "status": "booked",
            "services": list(services),
            "history": [{"status": "booked", "note": ""}],
            "invoice": None,
        }
        self.data["appointments"][aid] = appt
        slot["status"] = "booked"
        slot["appointment_id"] = aid
        return appt

    def confirm(self, args):
        appt = self._appointment(args)
        self._transition(appt, ("booked",), "confirmed", self._arg(args, "note", False))
        return appt

    def cancel(self, args):
        appt = self._appointment(args)
        reason = self._arg(args, "reason")
        was = appt["status"]
        self._transition(appt, ACTIVE, "cancelled", reason)
        slot = self.data["slots"].get(appt["slot_id"])
        if slot is not None:
            slot["status"] = "open"
            slot["appointment_id"] = None
        fee = LATE_CANCEL_FEE if was == "confirmed" else 0.0
        owner = self.data["owners"][appt["owner_id"]]
        owner["credit_balance"] = _money(owner["credit_balance"] - fee)
        return {"appointment": appt, "cancellation_fee": fee, "credit_balance": owner["credit_balance"]}

    def complete(self, args):
        appt = self._appointment(args)
        if appt["status"] != "confirmed":
            raise ClinicError(
                f"appointment {appt['appointment_id']} is {appt['status']}; it can be completed only when confirmed"
            )
        lines, subtotal, applied = self._lines(appt)
        self._transition(appt, ("confirmed",), "completed", self._arg(args, "note", False))
        owner = self.data["owners"][appt["owner_id"]]
        owner["credit_balance"] = _money(owner["credit_balance"] - applied)
        self.data["vets"][appt["vet_id"]]["completed_visits"] += 1
        appt["invoice"] = {
            "invoice_id": "INV-" + appt["appointment_id"].split("-")[1],
            "lines": lines,
            "subtotal": subtotal,
            "credit_applied": applied,
            "amount_due": _money(subtotal - applied),
        }
        return appt

    def _editable(self, args):
        appt = self._appointment(args)
        code = self._arg(args, "service_code")
        if appt["status"] not in ACTIVE:
            raise ClinicError(
                f"appointment {appt['appointment_id']} is {appt['status']}; "
                "services can be changed only when booked or confirmed"
            )
        return appt, code

    def add_service(self, args):
        appt, code = self._editable(args)
        if code in appt["services"]:
            raise ClinicError(f"service {code} is already on appointment {appt['appointment_id']}")
        if len(appt["services"]) >= MAX_SERVICES:
            raise ClinicError(f"at most {MAX_SERVICES} services per appointment")
        pet = self._pet(self.data["owners"][appt["owner_id"]], appt["pet_name"])
        self._check_service(code, self.data["vets"][appt["vet_id"]], pet)
        appt["services"].append(code)
        return appt

    def remove_service(self, args):
        appt, code = self._editable(args)
        if code not in appt["services"]:
            raise ClinicError(f"service {code} is not on appointment {appt['appointment_id']}")
        appt["services"].remove(code)
        return appt


def make():
    """A fresh clinic with an empty state; call reset(state) before use."""
    return Clinic()


if __name__ == "__main__":
    data = json.load(open(os.path.join(HERE, "data.json")))
    ref, n, errors = make(), 0, 0
    for line in open(os.path.join(HERE, "trajectories.jsonl")):
        t = json.loads(line)
        ref.reset(t.get("initial_state", data))
        for c in t["calls"]:
            n += 1
            errors += not ref.call(c["name"], c["arguments"])["ok"]
    print(f"calls {n}, errors {errors}")
