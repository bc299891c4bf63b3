"""Write trajectories.jsonl: seeded front-desk sessions over data.json, each checked against the adapter.

Each scenario plays a support agent: it reads what it needs through the API, then writes. Every call is run
on the real implementation as the session is built, so later calls use real outputs (new ids, open slots).
Usage: python make_trajectories.py [--check]   (--check: compare with the existing file, write nothing)
"""

import json
import os
import random
import sys

import adapter

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20261202
TARGET = 72
EXOTIC = adapter.EXOTIC_SPECIES


class Session:
    """One trajectory under construction: runs calls on the clinic and records them."""

    def __init__(self, data):
        self.clinic = adapter.make()
        self.clinic.reset(data)
        self.calls = []

    def do(self, op, /, **arguments):
        args = {k: v for k, v in arguments.items() if v is not None}
        self.calls.append({"name": op, "arguments": args})
        return self.clinic.call(op, args)

    @property
    def s(self):
        return self.clinic.data


def who(o, how):
    if how == "email":
        return f"your e-mail is {o['email']}"
    if how == "phone":
        return f"your phone number is {o['phone']}"
    return f"your owner id is {o['owner_id']}"


def identify(ses, rng, o):
    """Find the owner's account the way the caller identifies themself; returns the phrase used."""
    how = rng.choice(["email", "phone", "id"])
    if how == "email":
        ses.do("findOwners", email=o["email"])
    elif how == "phone":
        ses.do("findOwners", phone=o["phone"])
    else:
        ses.do("getOwner", owner_id=o["owner_id"])
    return who(o, how)


def appts(ses, status=None, owner_id=None):
    return [
        a
        for a in ses.s["appointments"].values()
        if (status is None or a["status"] == status) and (owner_id is None or a["owner_id"] == owner_id)
    ]


def owner_of(ses, a):
    return ses.s["owners"][a["owner_id"]]


REASONS = {
    "dog": ["Limping on the back leg", "Annual check-up", "Vomiting since yesterday", "Itchy paws"],
    "cat": ["Not using the litter box", "Yearly vaccines", "Weight loss", "Watery eyes"],
    "rabbit": ["Overgrown teeth", "Not eating hay"],
    "bird": ["Feather plucking", "Beak overgrowth"],
    "ferret": ["Lethargic and sleeping a lot", "Annual check-up"],
}
SPECIES_SERVICES = {
    "dog": ["vaccine_rabies", "vaccine_dhpp", "nail_trim", "microchip", "bloodwork"],
    "cat": ["vaccine_rabies", "vaccine_fvrcp", "nail_trim", "microchip", "bloodwork"],
    "rabbit": ["nail_trim", "bloodwork"],
    "bird": ["nail_trim", "bloodwork"],
    "ferret": ["vaccine_rabies", "nail_trim", "microchip"],
}


def sc_book(ses, rng):
    o = rng.choice(list(ses.s["owners"].values()))
    pet = rng.choice(o["pets"])
    me = identify(ses, rng, o)
    exotic = pet["species"] in EXOTIC
    spec = "exotics" if exotic else rng.choice(["general", "dermatology", None])
    day = rng.choice([None, None, "2026-12-03", "2026-12-07"])
    offers = ses.do("searchAvailableSlots", specialty=spec, city=o["city"], date=day)["output"]
    if not offers:
        offers = ses.do("searchAvailableSlots", specialty=spec, city=o["city"])["output"]
    if not offers:
        return None
    slot = rng.choice(offers[:3])
    services = rng.sample(SPECIES_SERVICES[pet["species"]], rng.choice([0, 0, 1, 2]))
    reason = rng.choice(REASONS[pet["species"]])
    ses.do(
        "bookAppointment",
        owner_id=o["owner_id"],
        pet_name=pet["name"],
        slot_id=slot["slot_id"],
        reason=reason,
        services=services or None,
    )
    extra = f" and ask for {', '.join(services)}" if services else ""
    when = f" on {day}" if day else ""
    return (
        f"You are {o['name']}; {me}. Book a visit for your {pet['species']} {pet['name']} ({reason.lower()}) "
        f"with a vet ({spec or 'any specialty'}) in {o['city']}{when}; take one of the first offered slots{extra}."
    )


def sc_book_exotic_wrong_vet(ses, rng):
    cands = [(o, p) for o in ses.s["owners"].values() for p in o["pets"] if p["species"] in EXOTIC]
    o, pet = rng.choice(cands)
    me = identify(ses, rng, o)
    offers = ses.do("searchAvailableSlots", city=o["city"], specialty="general")["output"]
    wrong = [x for x in offers if "exotics" not in x["specialties"]]
    reason = rng.choice(REASONS[pet["species"]])
    ses.do("bookAppointment", owner_id=o["owner_id"], pet_name=pet["name"], slot_id=wrong[0]["slot_id"], reason=reason)
    offers = ses.do("searchAvailableSlots", city=o["city"], specialty="exotics")["output"]
    if offers:
        ses.do(
            "bookAppointment", owner_id=o["owner_id"], pet_name=pet["name"], slot_id=offers[0]["slot_id"], reason=reason
        )
    return (
        f"You are {o['name']}; {me}. You want the earliest general-practice slot in {o['city']} for your "
        f"{pet['species']} {pet['name']} ({reason.lower()}). If that is refused, accept the earliest exotics slot."
    )


def sc_book_taken_slot(ses, rng):
    o = rng.choice(list(ses.s["owners"].values()))
    pet = rng.choice([p for p in o["pets"] if p["species"] not in EXOTIC] or o["pets"])
    taken = rng.choice(sorted(k for k, v in ses.s["slots"].items() if v["status"] != "open"))
    me = identify(ses, rng, o)
    reason = rng.choice(REASONS[pet["species"]])
    ses.do("bookAppointment", owner_id=o["owner_id"], pet_name=pet["name"], slot_id=taken, reason=reason)
    vet = ses.s["slots"][taken]["vet_id"]
    offers = ses.do("searchAvailableSlots", vet_id=vet)["output"]
    if offers and (pet["species"] not in EXOTIC or "exotics" in offers[0]["specialties"]):
        ses.do(
            "bookAppointment", owner_id=o["owner_id"], pet_name=pet["name"], slot_id=offers[0]["slot_id"], reason=reason
        )
    return (
        f"You are {o['name']}; {me}. Book slot {taken} for {pet['name']} ({reason.lower()}). If it is not "
        f"available, take that veterinarian's earliest open slot instead."
    )


def sc_confirm(ses, rng):
    a = rng.choice(appts(ses, "booked") + appts(ses, "confirmed")[:1])
    o = owner_of(ses, a)
    me = identify(ses, rng, o)
    ses.do("listAppointments", owner_id=o["owner_id"], status=rng.choice([None, "booked"]))
    note = rng.choice([None, "Owner confirmed by phone", "Confirmed at the front desk"])
    ses.do("confirmAppointment", appointment_id=a["appointment_id"], note=note)
    return f"You are {o['name']}; {me}. Confirm that {a['pet_name']} will come to appointment {a['appointment_id']}."


def sc_cancel(ses, rng):
    pool = appts(ses, "booked") + appts(ses, "confirmed") + appts(ses, "completed")[:1] + appts(ses, "cancelled")
    a = rng.choice(pool)
    o = owner_of(ses, a)
    me = identify(ses, rng, o)
    ses.do("getAppointment", appointment_id=a["appointment_id"])
    reason = rng.choice(
        ["Owner travelling", "Pet is feeling better", "Scheduling conflict at work", "Going to a clinic closer to home"]
    )
    ses.do("cancelAppointment", appointment_id=a["appointment_id"], reason=reason)
    if rng.random() < 0.4:
        ses.do("getOwner", owner_id=o["owner_id"])
    return (
        f"You are {o['name']}; {me}. Cancel appointment {a['appointment_id']} for {a['pet_name']} "
        f"({reason.lower()}). You accept a late-cancellation fee if there is one."
    )


def sc_complete(ses, rng):
    a = rng.choice(appts(ses, "confirmed") + appts(ses, "booked"))
    vet = ses.s["vets"][a["vet_id"]]
    ses.do("listAppointments", vet_id=vet["vet_id"], date=ses.s["slots"][a["slot_id"]]["date"])
    if a["status"] == "booked" and rng.random() < 0.6:
        ses.do("completeAppointment", appointment_id=a["appointment_id"])
        ses.do("confirmAppointment", appointment_id=a["appointment_id"], note="Owner arrived")
    ses.do(
        "completeAppointment",
        appointment_id=a["appointment_id"],
        note=rng.choice([None, "Recheck in two weeks", "All services done", "Prescribed ointment"]),
    )
    return (
        f"You are {vet['name']}'s assistant. {a['pet_name']} has just been seen for appointment "
        f"{a['appointment_id']}; close the visit and issue the invoice (the owner did arrive)."
    )


def sc_add_service(ses, rng):
    a = rng.choice(appts(ses, "booked") + appts(ses, "confirmed") + appts(ses, "completed")[:1])
    o = owner_of(ses, a)
    pet = next(p for p in o["pets"] if p["name"] == a["pet_name"])
    me = identify(ses, rng, o)
    ses.do("getAppointment", appointment_id=a["appointment_id"])
    code = rng.choice(sorted(adapter.SERVICE_PRICES))
    ses.do("addAppointmentService", appointment_id=a["appointment_id"], service_code=code)
    if rng.random() < 0.6:
        ses.do("getVisitQuote", appointment_id=a["appointment_id"])
    return (
        f"You are {o['name']}; {me}. Add {code} to {pet['name']}'s appointment {a['appointment_id']} "
        f"and ask what the visit will cost."
    )


def sc_remove_service(ses, rng):
    a = rng.choice(
        [x for x in appts(ses, "booked") + appts(ses, "confirmed") if x["services"]] + appts(ses, "booked")[:1]
    )
    o = owner_of(ses, a)
    me = identify(ses, rng, o)
    ses.do("getAppointment", appointment_id=a["appointment_id"])
    code = a["services"][0] if a["services"] else "nail_trim"
    ses.do("removeAppointmentService", appointment_id=a["appointment_id"], service_code=code)
    ses.do("getVisitQuote", appointment_id=a["appointment_id"])
    return (
        f"You are {o['name']}; {me}. You no longer want {code} during appointment {a['appointment_id']}; "
        f"drop it and ask for the new price."
    )


def sc_quote(ses, rng):
    o = rng.choice(list(ses.s["owners"].values()))
    me = identify(ses, rng, o)
    mine = ses.do("listAppointments", owner_id=o["owner_id"])["output"]
    if not mine:
        return None
    a = rng.choice(mine)
    ses.do("getVisitQuote", appointment_id=a["appointment_id"])
    return (
        f"You are {o['name']}; {me}. Ask how much the visit {a['appointment_id']} for {a['pet_name']} "
        f"costs and how much of your credit will be used."
    )


def sc_reschedule(ses, rng):
    a = rng.choice(appts(ses, "booked") + appts(ses, "confirmed"))
    o = owner_of(ses, a)
    me = identify(ses, rng, o)
    ses.do("getAppointment", appointment_id=a["appointment_id"])
    offers = ses.do("searchAvailableSlots", vet_id=a["vet_id"])["output"]
    if not offers:
        return None
    new = ses.do(
        "bookAppointment",
        owner_id=o["owner_id"],
        pet_name=a["pet_name"],
        slot_id=offers[-1]["slot_id"],
        reason=a["reason"],
        services=list(a["services"]) or None,
    )
    if new["ok"]:
        ses.do("cancelAppointment", appointment_id=a["appointment_id"], reason="Rescheduled")
    return (
        f"You are {o['name']}; {me}. Move appointment {a['appointment_id']} to the latest open slot of "
        f"the same veterinarian, keeping the reason and services; cancel the old one once the new one is booked."
    )


def sc_busy_owner(ses, rng):
    o = ses.s["owners"][rng.choice(["OWN-1008", "OWN-1001", "OWN-1005"])]
    me = identify(ses, rng, o)
    offers = ses.do("searchAvailableSlots", city=o["city"], date=rng.choice(["2026-12-03", "2026-12-04", None]))
    free = [x for x in offers["output"] if "exotics" not in x["specialties"]]
    pets = [p for p in o["pets"] if p["species"] not in EXOTIC]
    for i, slot in enumerate(free[:3]):
        ses.do(
            "bookAppointment",
            owner_id=o["owner_id"],
            pet_name=pets[i % len(pets)]["name"],
            slot_id=slot["slot_id"],
            reason="Annual check-up",
        )
    return (
        f"You are {o['name']}; {me}. Book annual check-ups for your pets in the first three open non-exotics "
        f"slots in {o['city']}, alternating between your pets; stop if the clinic refuses."
    )


def sc_missing(ses, rng):
    kind = rng.choice(["appt", "owner", "pet"])
    if kind == "appt":
        aid = f"APT-{rng.choice([5013, 5020, 5099, 4999])}"
        ses.do("getAppointment", appointment_id=aid)
        return f"Ask about appointment {aid}, which you believe exists."
    if kind == "owner":
        oid = f"OWN-{rng.choice([1009, 1012, 1100])}"
        ses.do("getOwner", owner_id=oid)
        ses.do("findOwners", name=rng.choice(["Ortega", "whitlock", "Raman", "Kowalski"]))
        return f"You give owner id {oid}; if it is wrong, you give your last name."
    o = rng.choice(list(ses.s["owners"].values()))
    me = identify(ses, rng, o)
    offers = ses.do("searchAvailableSlots", city=o["city"])["output"]
    ses.do(
        "bookAppointment",
        owner_id=o["owner_id"],
        pet_name=rng.choice(["Rex", "Whiskers", "biscuit"]),
        slot_id=offers[0]["slot_id"],
        reason="Check-up",
    )
    return (
        f"You are {o['name']}; {me}. Book a check-up in the first open slot in {o['city']} for a pet you name wrongly."
    )


def sc_day_round(ses, rng):
    vet = rng.choice(list(ses.s["vets"].values()))
    day = rng.choice(["2026-12-03", "2026-12-04", "2026-12-07"])
    todays = ses.do("listAppointments", vet_id=vet["vet_id"], date=day)["output"]
    for a in todays:
        if a["status"] == "booked":
            ses.do("confirmAppointment", appointment_id=a["appointment_id"], note="Reminder call answered")
    return f"You work for {vet['name']}: confirm every still-unconfirmed appointment on {day}."


SCENARIOS = [
    (sc_book, 12),
    (sc_book_exotic_wrong_vet, 3),
    (sc_book_taken_slot, 3),
    (sc_confirm, 8),
    (sc_cancel, 10),
    (sc_complete, 8),
    (sc_add_service, 9),
    (sc_remove_service, 5),
    (sc_quote, 4),
    (sc_reschedule, 5),
    (sc_busy_owner, 3),
    (sc_missing, 3),
    (sc_day_round, 3),
]


def build(data):
    """The trajectories, deterministic for SEED."""
    rng = random.Random(SEED)
    names = [f for f, _ in SCENARIOS]
    weights = [w for _, w in SCENARIOS]
    out, seen = [], set()
    while len(out) < TARGET:
        fn = rng.choices(names, weights)[0]
        ses = Session(data)
        instruction = fn(ses, rng)
        key = json.dumps(ses.calls, sort_keys=True)
        if instruction is None or not ses.calls or len(ses.calls) > 5 or key in seen:
            continue
        seen.add(key)
        out.append(
            {
                "id": f"clinic-{len(out):03d}",
                "scenario": fn.__name__[3:],
                "instruction": instruction,
                "calls": ses.calls,
            }
        )
    return out


def check(trajs, data):
    """Replay each trajectory on a fresh clinic; return (calls, failing calls)."""
    n = bad = 0
    for t in trajs:
        clinic = adapter.make()
        clinic.reset(data)
        for c in t["calls"]:
            r = clinic.call(c["name"], c["arguments"])
            if set(r) != {"ok", "output"} or not isinstance(r["ok"], bool):
                raise SystemExit(f"{t['id']}: bad result shape for {c['name']}")
            n += 1
            bad += not r["ok"]
    return n, bad


def main():
    data = json.load(open(os.path.join(HERE, "data.json")))
    trajs = build(data)
    n, bad = check(trajs, data)
    text = "".join(json.dumps(t, sort_keys=True) + "\n" for t in trajs)
    path = os.path.join(HERE, "trajectories.jsonl")
    if "--check" in sys.argv:
        same = os.path.exists(path) and open(path).read() == text
        print(f"trajectories {len(trajs)}, calls {n}, failing {bad}, file {'matches' if same else 'DIFFERS'}")
        raise SystemExit(0 if same else 1)
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)
    print(f"trajectories {len(trajs)}, calls {n}, failing {bad} ({bad / n:.1%})")


if __name__ == "__main__":
    main()
