#!/usr/bin/env python3
"""Generate trajectories.jsonl: support sessions at the Corrowdale bulky-waste desk.

Seeded and deterministic. Each session is what a desk agent would do for one resident, starting from
data.json. The sessions are then replayed through adapter.py and the refused share is printed.
Standard library only.
"""

import json
import os
import random

import adapter

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20260316

DATA = json.load(open(os.path.join(HERE, "data.json")))
HH = DATA["households"]
ROUNDS = DATA["rounds"]
CATS = DATA["item_categories"]
BOOKINGS = DATA["bookings"]

DESCRIPTIONS = {
    "MATT": ["single mattress", "double mattress", "king-size mattress, bagged", "cot mattress"],
    "SOFA": ["two-seater sofa", "recliner armchair", "three-seater leather sofa", "sofa bed"],
    "FRDG": ["upright freezer", "fridge-freezer", "under-counter fridge", "chest freezer"],
    "WASH": ["washing machine", "tumble dryer", "dishwasher", "gas cooker, disconnected"],
    "TVMN": ["flat-screen TV", "old computer monitor", "42-inch television"],
    "SELC": ["bag of small kitchen appliances", "bag of old chargers and a radio", "toaster and kettle"],
    "GRDN": ["hedge trimmings", "leaves", "grass cuttings", "prunings"],
    "FURN": ["wardrobe, dismantled", "dining table", "single bed frame", "chest of drawers", "bookcase"],
    "CRPT": ["living-room carpet, rolled", "hall runner", "large rug"],
}
SPOKEN = {
    "MATT": ("a mattress", "mattresses"),
    "SOFA": ("a sofa", "sofas"),
    "FRDG": ("a fridge", "fridges"),
    "WASH": ("a washing machine", "washing machines"),
    "TVMN": ("an old telly", "old TVs"),
    "SELC": ("a bag of small electricals", "bags of small electricals"),
    "GRDN": ("a sack of garden waste", "sacks of garden waste"),
    "FURN": ("an old piece of furniture", "pieces of old furniture"),
    "CRPT": ("a rolled-up carpet", "carpets"),
}
NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
PLACEMENTS = ["front_kerb", "driveway", "front_garden"]


def first_name(hid):
    return HH[hid]["account_holder"].split()[0]


def street(hid):
    parts = HH[hid]["address"].split(", ")
    return ", ".join(parts[:2]) if parts[0].startswith("Flat") else parts[0]


SPOT = {"front_kerb": "on the front kerb", "driveway": "on the driveway", "front_garden": "in the front garden"}


def call(_tool, **arguments):
    return {"name": _tool, "arguments": arguments}


def spoken(items):
    parts = []
    for it in items:
        one, many = SPOKEN[it["category"]]
        parts.append(one if it["quantity"] == 1 else "%s %s" % (NUMBERS.get(it["quantity"], it["quantity"]), many))
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def pick_items(rng, max_units=5, pool=None):
    pool = pool or ["MATT", "SOFA", "FRDG", "WASH", "TVMN", "SELC", "GRDN", "FURN", "CRPT"]
    codes = rng.sample(pool, rng.choice([1, 1, 2, 2, 3]))
    items = []
    units = 0
    for code in codes:
        cap = min(CATS[code]["max_per_booking"], max_units - units)
        if cap < 1:
            break
        qty = rng.randint(1, min(cap, 2 if code != "GRDN" else 4))
        units += qty
        items.append({"category": code, "quantity": qty, "description": rng.choice(DESCRIPTIONS[code])})
    return items


def slots(items):
    return sum(CATS[it["category"]]["slots"] * it["quantity"] for it in items)


def bookable_rounds(hid, items):
    """Open future rounds in the household's zone with room and no active booking of theirs."""
    zone = HH[hid]["zone_id"]
    taken = {
        b["round_id"]
        for b in BOOKINGS.values()
        if b["household_id"] == hid and b["status"] in ("requested", "scheduled")
    }
    out = []
    for r in sorted(ROUNDS.values(), key=lambda r: r["date"]):
        if r["zone_id"] != zone or r["status"] != "open" or r["date"] <= adapter.BUSINESS_DATE:
            continue
        if r["round_id"] in taken or r["slot_capacity"] - r["slots_booked"] < slots(items):
            continue
        out.append(r)
    return out


def fmt_date(iso):
    months = ["January", "February", "March", "April"]
    y, m, d = iso.split("-")
    return "%d %s" % (int(d), months[int(m) - 1])


# ---------------------------------------------------------------------------------------------- scenarios


def s_new_booking(rng, hid):
    items = pick_items(rng)
    rounds = bookable_rounds(hid, items)
    while not rounds:
        items = pick_items(rng, max_units=3)
        rounds = bookable_rounds(hid, items)
    rnd = rng.choice(rounds[:2])
    placement = rng.choice(PLACEMENTS)
    h = HH[hid]
    when = rng.choice(
        [
            "as soon as you can",
            "on the %s round if there's room" % fmt_date(rnd["date"]),
            "some time in the next couple of weeks",
        ]
    )
    instr = rng.choice(
        [
            "Hi, this is %s at %s, %s. I need %s taken away, %s. I'll leave everything %s.",
            "Hello, %s here from %s (%s). Can I book a bulky collection for %s? Ideally %s. It'll all be %s.",
        ]
    ) % (h["account_holder"], street(hid), h["postcode"], spoken(items), when, SPOT[placement])
    calls = [call("find_households", postcode=h["postcode"], name=h["account_holder"].split()[-1])]
    calls.append(call("find_collection_rounds", zone_id=h["zone_id"], min_free_slots=slots(items)))
    if rng.random() < 0.75:
        calls.append(call("quote_collection", household_id=hid, items=items, round_id=rnd["round_id"]))
    calls.append(call("create_booking", household_id=hid, round_id=rnd["round_id"], items=items, placement=placement))
    return instr, calls


def s_new_booking_keep_allowance(rng, hid):
    code = rng.choice(["TVMN", "SELC", "CRPT"])
    items = [{"category": code, "quantity": 1, "description": rng.choice(DESCRIPTIONS[code])}]
    rnd = bookable_rounds(hid, items)[-1]
    h = HH[hid]
    instr = (
        "I'm %s, %s. I only have %s to get rid of, and I'd rather save my free collections for when "
        "we clear the loft. Just charge me for it please, any date from %s is fine."
    ) % (h["account_holder"], h["address"], spoken(items), fmt_date(rnd["date"]))
    calls = [
        call("get_household", household_id=hid),
        call("find_collection_rounds", zone_id=h["zone_id"], from_date=rnd["date"]),
        call("quote_collection", household_id=hid, items=items, round_id=rnd["round_id"], use_free_collection=False),
        call(
            "create_booking",
            household_id=hid,
            round_id=rnd["round_id"],
            items=items,
            placement="front_kerb",
            use_free_collection=False,
        ),
    ]
    return instr, calls


def s_quote(rng, hid):
    items = pick_items(rng)
    HH[hid]
    instr = "Hi, %s from %s here. Roughly what would it cost me to have %s collected?" % (
        first_name(hid),
        street(hid),
        spoken(items),
    )
    calls = [call("find_households", address=street(hid)), call("quote_collection", household_id=hid, items=items)]
    if rng.random() < 0.4:
        calls.insert(1, call("get_household", household_id=hid))
    return instr, calls


def s_status(rng, bid):
    b = BOOKINGS[bid]
    hid = b["household_id"]
    if rng.random() < 0.5:
        instr = "Can you tell me what's happening with my collection? The reference is %s." % bid
        return instr, [call("get_booking", booking_id=bid)]
    instr = "Hello, it's %s at %s, %s. I've lost my booking reference, what have I got booked with you?" % (
        HH[hid]["account_holder"],
        street(hid),
        HH[hid]["postcode"],
    )
    return instr, [
        call("find_households", postcode=HH[hid]["postcode"]),
        call("list_household_bookings", household_id=hid),
        call("get_booking", booking_id=bid),
    ]


def s_balance(rng, hid):
    h = HH[hid]
    instr = (
        "Hi, I'm %s, %s. How many free collections have I got left this "
        "year, and is there anything owing on my account?" % (h["account_holder"], h["postcode"])
    )
    return instr, [call("find_households", name=h["account_holder"]), call("get_household", household_id=hid)]


def s_add_items(rng, bid, add, say):
    instr = "It's about booking %s. %s" % (bid, say)
    return instr, [call("get_booking", booking_id=bid), call("update_booking_items", booking_id=bid, add_items=add)]


def s_remove_items(rng, bid, lines, say):
    instr = "Booking %s: %s" % (bid, say)
    return instr, [
        call("get_booking", booking_id=bid),
        call("update_booking_items", booking_id=bid, remove_lines=lines),
    ]


def s_reschedule(rng, bid, new_round, say, look=True):
    b = BOOKINGS[bid]
    zone = ROUNDS[b["round_id"]]["zone_id"]
    calls = [call("get_booking", booking_id=bid)]
    if look:
        calls.append(call("find_collection_rounds", zone_id=zone))
    calls.append(call("reschedule_booking", booking_id=bid, new_round_id=new_round))
    return "Reference %s. %s" % (bid, say), calls


def s_cancel(rng, bid, say, reason):
    return "Booking %s. %s" % (bid, say), [
        call("get_booking", booking_id=bid),
        call("cancel_booking", booking_id=bid, reason=reason),
    ]


def s_fly_tip(rng, location, zone, what, hid=None):
    args = {"report_type": "fly_tipping", "location": location, "description": what}
    if zone:
        args["zone_id"] = zone
    calls = []
    if hid:
        args["household_id"] = hid
        calls.append(call("find_households", postcode=HH[hid]["postcode"], name=HH[hid]["account_holder"].split()[-1]))
        instr = "This is %s from %s. Someone's dumped %s. It's at the %s. Can you send someone?" % (
            HH[hid]["account_holder"],
            HH[hid]["postcode"],
            what[0].lower() + what[1:],
            location[0].lower() + location[1:],
        )
    else:
        instr = "I don't live round there but I want to report some fly-tipping: %s. Location: %s." % (
            what[0].lower() + what[1:],
            location,
        )
    calls.append(call("log_report", **args))
    return instr, calls


def build(rng):
    S = []

    # ---- new bookings, all valid
    for hid in [
        "HH-40211",
        "HH-40212",
        "HH-40215",
        "HH-40218",
        "HH-40223",
        "HH-40227",
        "HH-40230",
        "HH-40233",
        "HH-40236",
        "HH-40239",
        "HH-40241",
        "HH-40239",
        "HH-40212",
    ]:
        S.append(s_new_booking(rng, hid))
    S.append(s_new_booking_keep_allowance(rng, "HH-40211"))
    S.append(s_new_booking_keep_allowance(rng, "HH-40241"))

    # ---- quotes
    for hid in ["HH-40236", "HH-40227", "HH-40215", "HH-40218", "HH-40233"]:
        S.append(s_quote(rng, hid))
    S.append(
        (
            "Do you take pianos? We've an old upright at 88 Weir Road, CW4 6WR, Sunniva Okafor. And a sofa too.",
            [
                call("find_households", postcode="CW4 6WR"),
                call(
                    "quote_collection",
                    household_id="HH-40223",
                    items=[
                        {"category": "PIAN", "quantity": 1, "description": "upright piano"},
                        {"category": "SOFA", "quantity": 1, "description": "two-seater sofa"},
                    ],
                ),
            ],
        )
    )
    S.append(
        (
            "Callum Osei, 61 Quarry Street. We're moving out and have two old fridges and a washing machine. "
            "How much to take all of that in one go?",
            [
                call("find_households", address="61 Quarry Street"),
                call(
                    "quote_collection",
                    household_id="HH-40239",
                    items=[
                        {"category": "FRDG", "quantity": 2, "description": "two fridges"},
                        {"category": "WASH", "quantity": 1, "description": "washing machine"},
                    ],
                ),
            ],
        )
    )
    S.append(
        (
            "What sort of things can you collect? I've got a bit of everything to clear.",
            [call("list_item_categories", accepted_only=True)],
        )
    )
    S.append(
        (
            "Is there anything you won't take? Thinking of old car tyres and a load of bricks from the garden wall.",
            [call("list_item_categories")],
        )
    )

    # ---- status and account queries
    for bid in ["BK-20944", "BK-20952", "BK-20955", "BK-20963", "BK-20970", "BK-20972"]:
        S.append(s_status(rng, bid))
    S.append(
        (
            "I booked a collection, reference BK-20939, can you check it's still on?",
            [call("get_booking", booking_id="BK-20939")],
        )
    )
    for hid in ["HH-40218", "HH-40230", "HH-40227"]:
        S.append(s_balance(rng, hid))

    # ---- adding items
    S.append(
        s_add_items(
            rng,
            "BK-20955",
            [{"category": "GRDN", "quantity": 3, "description": "hedge trimmings"}],
            "Could you add three sacks of garden waste to it?",
        )
    )
    S.append(
        s_add_items(
            rng,
            "BK-20957",
            [{"category": "MATT", "quantity": 1, "description": "single mattress"}],
            "I've found an old single mattress as well, can that go on the same collection?",
        )
    )
    S.append(
        s_add_items(
            rng,
            "BK-20952",
            [{"category": "TVMN", "quantity": 1, "description": "old television"}],
            "Rhiannon Vasquez here. Add an old telly to it please.",
        )
    )
    S.append(
        s_add_items(
            rng,
            "BK-20944",
            [{"category": "WASH", "quantity": 1, "description": "tumble dryer"}],
            "Tomasz Reilly. The tumble dryer's packed in too, can you add it to Wednesday's pickup?",
        )
    )
    S.append(
        s_add_items(
            rng,
            "BK-20965",
            [{"category": "TVMN", "quantity": 2, "description": "two more monitors"}],
            "I've got two more monitors from the office to add.",
        )
    )
    S.append(
        s_add_items(
            rng,
            "BK-20947",
            [{"category": "GRDN", "quantity": 2, "description": "more hedge cuttings"}],
            "Dev Castellano. Can I put two more garden sacks out tomorrow with the wardrobe?",
        )
    )
    S.append(
        s_add_items(
            rng,
            "BK-20970",
            [{"category": "FURN", "quantity": 1, "description": "garden bench"}],
            "Agnes Trewin, Flat 3. My nephew is bringing down an old bench, can it go with the garden sacks?",
        )
    )

    # ---- removing items
    S.append(s_remove_items(rng, "BK-20944", [3], "the telly's gone to my neighbour, so take it off the list."))
    S.append(s_remove_items(rng, "BK-20952", [3], "I've sold the small appliances, please remove that bag."))
    S.append(s_remove_items(rng, "BK-20972", [1], "actually I'm keeping the chest of drawers, take it off."))

    # ---- rescheduling
    S.append(
        s_reschedule(
            rng,
            "BK-20955",
            "RD-0331-N",
            "June Pettigrew. I'll be in hospital on the 24th, can you move it to the 31st?",
        )
    )
    S.append(
        s_reschedule(rng, "BK-20944", "RD-0401-S", "Can we push it back a fortnight? The 1st of April would be good.")
    )
    S.append(
        s_reschedule(
            rng,
            "BK-20970",
            "RD-0401-S",
            "Agnes Trewin. Could the garden sacks go on the 1st of April instead?",
            look=False,
        )
    )
    S.append(
        s_reschedule(
            rng,
            "BK-20950",
            "RD-0326-E",
            "Gregor Amsel. Thursday's no good for the cooker, can you do the following Thursday?",
        )
    )
    S.append(s_reschedule(rng, "BK-20963", "RD-0326-E", "Lena Fairbrother. Can you move my collection to the 26th?"))
    S.append(
        s_reschedule(
            rng,
            "BK-20931",
            "RD-0324-N",
            "I think the sofa collection needs redoing, can you move it to next Tuesday?",
            look=False,
        )
    )
    S.append(
        (
            "Booking BK-20972, Sunniva Okafor. Could you move it back to this Thursday, the 19th? "
            "Oh, sorry, actually the 26th was right after all, please put it back.",
            [
                call("get_booking", booking_id="BK-20972"),
                call("reschedule_booking", booking_id="BK-20972", new_round_id="RD-0319-E"),
                call("reschedule_booking", booking_id="BK-20972", new_round_id="RD-0326-E"),
            ],
        )
    )
    S.append(
        (
            "Bart Nkemelu, BK-20965. Can it go on the Saturday round in April instead of the 27th?",
            [
                call("get_booking", booking_id="BK-20965"),
                call("find_collection_rounds", zone_id="ZN-04", from_date="2026-03-28"),
                call("reschedule_booking", booking_id="BK-20965", new_round_id="RD-0404-W"),
            ],
        )
    )

    # ---- cancellations
    S.append(
        s_cancel(
            rng,
            "BK-20947",
            "Dev Castellano. I don't need the collection tomorrow after all, my son took the wardrobe.",
            "son took the wardrobe",
        )
    )
    S.append(
        s_cancel(
            rng,
            "BK-20965",
            "We've decided to take the electricals to the tip ourselves, please cancel.",
            "taking items to the recycling centre",
        )
    )
    S.append(
        s_cancel(
            rng,
            "BK-20952",
            "Rhiannon Vasquez. Please cancel, the landlord is clearing the flat instead.",
            "landlord clearing the flat",
        )
    )
    S.append(
        s_cancel(
            rng,
            "BK-20940",
            "The fridge is still sitting on my drive from Friday. Just cancel the whole thing and refund me.",
            "not collected",
        )
    )
    S.append(
        s_cancel(
            rng,
            "BK-20960",
            "Callum Osei. Please make sure my sofa collection is cancelled, I sold it.",
            "sold the sofa",
        )
    )
    S.append(
        s_cancel(
            rng,
            "BK-20970",
            "Agnes Trewin. The gardener is taking the sacks away, so cancel please.",
            "gardener removing the waste",
        )
    )

    # ---- missed collections
    S.append(
        (
            "Bart Nkemelu, 40 Signal Hill. Nobody came for my fridge-freezer and washing machine on Friday, "
            "reference BK-20940. Can you send them again?",
            [
                call("get_booking", booking_id="BK-20940"),
                call(
                    "log_report",
                    report_type="missed_collection",
                    booking_id="BK-20940",
                    description="Fridge-freezer and washing machine left on the driveway, not collected on 13 March",
                ),
                call("find_collection_rounds", zone_id="ZN-04", min_free_slots=4),
                call("reschedule_booking", booking_id="BK-20940", new_round_id="RD-0404-W"),
            ],
        )
    )
    S.append(
        (
            "Ines Marwick. My TV was meant to go on the 3rd of March and it's still out the front. Booking BK-20938.",
            [
                call("get_booking", booking_id="BK-20938"),
                call(
                    "log_report",
                    report_type="missed_collection",
                    booking_id="BK-20938",
                    description="Television not collected on 3 March, still in front garden",
                ),
            ],
        )
    )
    S.append(
        (
            "Ines again, 2 Orchard Terrace. You logged my missed mattress "
            "last week (BK-20968) but nobody has rebooked it.",
            [
                call("get_booking", booking_id="BK-20968"),
                call("find_collection_rounds", zone_id="ZN-01"),
                call("reschedule_booking", booking_id="BK-20968", new_round_id="RD-0324-N"),
            ],
        )
    )
    S.append(
        (
            "Rhiannon Vasquez here. The collection on my account never happened, reference BK-20952.",
            [
                call("get_booking", booking_id="BK-20952"),
                call(
                    "log_report",
                    report_type="missed_collection",
                    booking_id="BK-20952",
                    description="Resident says collection did not happen",
                ),
            ],
        )
    )

    # ---- fly-tipping
    S.append(
        s_fly_tip(rng, "Service lane behind 40-48 Quarry Street", "ZN-02", "A mattress and two bin bags", "HH-40239")
    )
    S.append(
        s_fly_tip(rng, "Signal Hill car park, by the bottle bank", "ZN-04", "A broken wardrobe and some carpet", None)
    )
    S.append(
        s_fly_tip(rng, "Corner of Larch Close and Furnace Row", "ZN-01", "An old fridge, door still on", "HH-40241")
    )
    S.append(s_fly_tip(rng, "Towpath under the Weir Road bridge", "ZN-03", "Several bags of plasterboard", None))
    S.append(s_fly_tip(rng, "Entrance to Tannery Court", None, "A sofa and a pile of garden waste", "HH-40227"))

    # ---- refused bookings and recoveries
    S.append(
        (
            "Lena Fairbrother, 3 Mill Lane. I'd like to book another collection for an old cooker please.",
            [
                call("find_households", postcode="CW4 1ML"),
                call("get_household", household_id="HH-40220"),
                call(
                    "create_booking",
                    household_id="HH-40220",
                    round_id="RD-0319-E",
                    items=[{"category": "WASH", "quantity": 1, "description": "old electric cooker"}],
                    placement="front_kerb",
                ),
            ],
        )
    )
    S.append(
        (
            "Lena Fairbrother again. Cancel the bunk bed booking (BK-20963), I can't pay for it yet. "
            "Then can I book the cooker for this Thursday instead?",
            [
                call("cancel_booking", booking_id="BK-20963", reason="cannot pay the invoice yet"),
                call("get_household", household_id="HH-40220"),
                call(
                    "create_booking",
                    household_id="HH-40220",
                    round_id="RD-0319-E",
                    items=[{"category": "WASH", "quantity": 1, "description": "old electric cooker"}],
                    placement="front_kerb",
                ),
            ],
        )
    )
    S.append(
        (
            "Sunniva Okafor, 88 Weir Road. I've got my rubble permit, PW-33025. Can the bags go this Thursday?",
            [
                call("get_household", household_id="HH-40223"),
                call(
                    "create_booking",
                    household_id="HH-40223",
                    round_id="RD-0319-E",
                    items=[{"category": "RUBB", "quantity": 1, "description": "bagged bricks from garden wall"}],
                    placement="driveway",
                    permit_id="PW-33025",
                ),
            ],
        )
    )
    S.append(
        (
            "Tomasz Reilly. I need a bag of rubble from the bathroom "
            "collected, permit PW-33040. Any Wednesday in April.",
            [
                call("find_households", name="Reilly"),
                call(
                    "create_booking",
                    household_id="HH-40218",
                    round_id="RD-0401-S",
                    items=[{"category": "RUBB", "quantity": 1, "description": "bathroom tiles and plaster"}],
                    placement="driveway",
                    permit_id="PW-33040",
                ),
            ],
        )
    )
    S.append(
        (
            "Bart Nkemelu, 40 Signal Hill, CW5 7SH. My permit's PW-33031, I need the builder's bag of rubble "
            "taken, plus an old mattress. The Saturday catch-up round would suit.",
            [
                call("find_households", postcode="CW5 7SH"),
                call(
                    "quote_collection",
                    household_id="HH-40233",
                    round_id="RD-0404-W",
                    items=[
                        {"category": "RUBB", "quantity": 1, "description": "builder's bag of rubble"},
                        {"category": "MATT", "quantity": 1, "description": "old mattress"},
                    ],
                ),
                call(
                    "create_booking",
                    household_id="HH-40233",
                    round_id="RD-0404-W",
                    items=[
                        {"category": "RUBB", "quantity": 1, "description": "builder's bag of rubble"},
                        {"category": "MATT", "quantity": 1, "description": "old mattress"},
                    ],
                    placement="driveway",
                    permit_id="PW-33031",
                ),
            ],
        )
    )
    S.append(
        (
            "June Pettigrew, 17 Larch Close. Can I book a dining table for the 24th as well?",
            [
                call("find_households", postcode="CW3 2LR", name="Pettigrew"),
                call(
                    "create_booking",
                    household_id="HH-40241",
                    round_id="RD-0324-N",
                    items=[{"category": "FURN", "quantity": 1, "description": "dining table"}],
                    placement="front_garden",
                ),
                call(
                    "update_booking_items",
                    booking_id="BK-20955",
                    add_items=[{"category": "FURN", "quantity": 1, "description": "dining table"}],
                ),
            ],
        )
    )
    S.append(
        (
            "Rhiannon Vasquez, 9 Kiln Gardens. I'd like a sofa collected this Friday, the 20th.",
            [
                call(
                    "create_booking",
                    household_id="HH-40230",
                    round_id="RD-0320-W",
                    items=[{"category": "SOFA", "quantity": 1, "description": "corner sofa"}],
                    placement="rear_lane",
                ),
                call("find_collection_rounds", zone_id="ZN-04"),
                call(
                    "create_booking",
                    household_id="HH-40230",
                    round_id="RD-0404-W",
                    items=[{"category": "SOFA", "quantity": 1, "description": "corner sofa"}],
                    placement="rear_lane",
                ),
            ],
        )
    )
    S.append(
        (
            "Callum Osei, 61 Quarry Street. Can you take a mattress this Wednesday? If not, whenever's next.",
            [
                call("find_households", address="Quarry Street"),
                call(
                    "create_booking",
                    household_id="HH-40239",
                    round_id="RD-0318-S",
                    items=[{"category": "MATT", "quantity": 1, "description": "double mattress"}],
                    placement="front_kerb",
                ),
                call("find_collection_rounds", zone_id="ZN-02", min_free_slots=1),
                call(
                    "create_booking",
                    household_id="HH-40239",
                    round_id="RD-0325-S",
                    items=[{"category": "MATT", "quantity": 1, "description": "double mattress"}],
                    placement="front_kerb",
                ),
            ],
        )
    )
    S.append(
        (
            "Maren Holloway, CW3 2LR. We're clearing my late aunt's things: two sofas, a wardrobe, a table, a bed "
            "frame, two mattresses and two carpets. One collection at the end of the month if possible. If it's too "
            "much, leave one of the carpets for another time.",
            [
                call("find_households", postcode="CW3 2LR", name="Holloway"),
                call(
                    "quote_collection",
                    household_id="HH-40211",
                    round_id="RD-0331-N",
                    items=[
                        {"category": "SOFA", "quantity": 2, "description": "two sofas"},
                        {"category": "FURN", "quantity": 3, "description": "wardrobe, table and bed frame"},
                        {"category": "MATT", "quantity": 2, "description": "two single mattresses"},
                        {"category": "CRPT", "quantity": 2, "description": "two bedroom carpets"},
                    ],
                ),
                call(
                    "create_booking",
                    household_id="HH-40211",
                    round_id="RD-0331-N",
                    items=[
                        {"category": "SOFA", "quantity": 2, "description": "two sofas"},
                        {"category": "FURN", "quantity": 3, "description": "wardrobe, table and bed frame"},
                        {"category": "MATT", "quantity": 2, "description": "two single mattresses"},
                        {"category": "CRPT", "quantity": 1, "description": "bedroom carpet"},
                    ],
                    placement="driveway",
                    notes="Side gate code 4471",
                ),
            ],
        )
    )
    S.append(
        (
            "Maren Holloway, 14 Larch Close. I want tomorrow's round please: a "
            "sofa and two carpets. I know it's short notice.",
            [
                call("find_households", postcode="CW3 2LR", name="Holloway"),
                call(
                    "quote_collection",
                    household_id="HH-40211",
                    round_id="RD-0317-N",
                    items=[
                        {"category": "SOFA", "quantity": 1, "description": "sofa"},
                        {"category": "CRPT", "quantity": 2, "description": "two carpets"},
                    ],
                ),
                call(
                    "create_booking",
                    household_id="HH-40211",
                    round_id="RD-0317-N",
                    items=[
                        {"category": "SOFA", "quantity": 1, "description": "sofa"},
                        {"category": "CRPT", "quantity": 2, "description": "two carpets"},
                    ],
                    placement="front_kerb",
                ),
            ],
        )
    )
    return S


def main():
    rng = random.Random(SEED)
    sessions = build(rng)
    order = list(range(len(sessions)))
    rng.shuffle(order)
    desk = adapter.make()
    calls = refused = 0
    with open(os.path.join(HERE, "trajectories.jsonl"), "w") as fh:
        for n, idx in enumerate(order):
            instr, cl = sessions[idx]
            fh.write(json.dumps({"id": "bulkwaste-%03d" % n, "instruction": instr, "calls": cl}) + "\n")
            desk.reset(DATA)
            for c in cl:
                calls += 1
                refused += 0 if desk.call(c["name"], c["arguments"])["ok"] else 1
    print("%d sessions, %d calls, %d refused (%.1f%%)" % (len(sessions), calls, refused, 100.0 * refused / calls))


if __name__ == "__main__":
    main()
