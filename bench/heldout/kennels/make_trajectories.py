"""Write trajectories.jsonl: front-desk sessions at Thornacre Kennels.

Each session starts from data.json.  Every call carries the outcome a desk
agent would expect (accepted or refused); the script replays each session
through adapter.py, stops on the first call whose outcome differs, and prints
the refused share.  Deterministic: seeded phrasing choice and session order.
"""

import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import adapter  # noqa: E402

SEED = 20260316
OK, NO = True, False


def c(name, ok=OK, **arguments):
    return (name, arguments, ok)


SESSIONS = [
    # ---------------------------------------------------------- check-ins
    (
        [
            "Hi, it's Daniel Okafor - I'm dropping Otis off for his stay, he's booked in from today.",
            "Morning, Daniel Okafor here with Otis the Labrador for his boarding.",
        ],
        [
            c("search_owners", query="Okafor"),
            c("list_stays", owner_id="OW-1002", status="reserved"),
            c("check_in_stay", stay_id="ST-40012"),
        ],
    ),
    (
        "Morning! Isla Fairbairn. Dotty's booked into one of your luxury suites from today for a week.",
        [
            c("search_owners", query="Fairbairn"),
            c("list_stays", dog_id="DG-2016", status="reserved"),
            c("check_in_stay", stay_id="ST-40013"),
        ],
    ),
    (
        "Gareth Llewellyn - I've got Hector and Nell in the car, both booked from today. Nell's on her thyroid tablets: "
        "half a tablet at eight in the morning and six at night, with food.",
        [
            c("search_owners", query="Llewellyn"),
            c("list_stays", owner_id="OW-1006", date="2026-03-16"),
            c("check_in_stay", stay_id="ST-40014"),
            c(
                "check_in_stay",
                stay_id="ST-40017",
                medication_instructions="Thyroxine: half a tablet at 08:00 and 18:00, given with food",
            ),
        ],
    ),
    (
        "Hello, I'm dropping off Nell Llewellyn for her booking. Her tablets are in the bag - one thyroxine, half in the "
        "morning and half in the evening.",
        [
            c("list_stays", dog_id="DG-2010", status="reserved"),
            c("check_in_stay", NO, stay_id="ST-40017"),
            c("get_dog", dog_id="DG-2010"),
            c(
                "check_in_stay",
                stay_id="ST-40017",
                medication_instructions="Thyroxine 1 tablet daily: half at breakfast, half at evening meal",
            ),
        ],
    ),
    (
        "It's Benedict Crane, I'm dropping Winnie off for her two weeks.",
        [
            c("search_owners", query="Crane"),
            c("list_stays", dog_id="DG-2018", status="reserved"),
            c("check_in_stay", NO, stay_id="ST-40015"),
        ],
    ),
    (
        "Benedict Crane again - sorry, I've got Winnie's new kennel cough certificate from Fenwick Cross Vets now, it's "
        "valid until 14 March 2027. Can you check her in for her stay?",
        [
            c("get_dog", dog_id="DG-2018"),
            c(
                "update_vaccination",
                dog_id="DG-2018",
                vaccine="kennel_cough",
                expiry_date="2027-03-14",
                vet_practice="Fenwick Cross Vets",
            ),
            c("check_in_stay", stay_id="ST-40015"),
        ],
    ),
    (
        "Margaret Hartley. I'm collecting Biscuit and dropping Pepper off at the same time - it's just gone ten.",
        [
            c("search_owners", query="Hartley"),
            c("list_stays", owner_id="OW-1001", date="2026-03-16"),
            c("check_out_stay", stay_id="ST-40011", departure_time="10:15"),
            c("check_in_stay", stay_id="ST-40016"),
        ],
    ),
    (
        "Hi, I'm Margaret Hartley. I'm going away earlier than planned - can Biscuit start his Easter stay today instead?",
        [c("list_stays", dog_id="DG-2001", status="reserved"), c("check_in_stay", NO, stay_id="ST-40022")],
    ),
    (
        "Ruth Abernethy here - I've finally brought Moss in for his weekend stay, sorry we didn't make it on Saturday.",
        [
            c("search_owners", query="Abernethy"),
            c("list_stays", dog_id="DG-2014"),
            c("check_in_stay", NO, stay_id="ST-40018"),
        ],
    ),
    # ---------------------------------------------------------- check-outs
    (
        "Hi, Priya Venkataraman, here to collect Kaju and Mango.",
        [
            c("search_owners", query="Venkataraman"),
            c("list_stays", owner_id="OW-1003", status="checked_in"),
            c("check_out_stay", stay_id="ST-40005", departure_time="11:40"),
            c("check_out_stay", stay_id="ST-40006", departure_time="11:40"),
        ],
    ),
    (
        "I'm here for Fern, Ruth Abernethy's spaniel. Sorry I'm late - it's nearly half one.",
        [
            c("search_owners", query="Fern"),
            c("list_stays", dog_id="DG-2013", status="checked_in"),
            c("check_out_stay", stay_id="ST-40008", departure_time="13:25"),
        ],
    ),
    (
        "Benedict Crane, picking up Archie. I know he was meant to go home yesterday, sorry!",
        [
            c("search_owners", query="Crane"),
            c("list_stays", dog_id="DG-2017", status="checked_in"),
            c("check_out_stay", stay_id="ST-40009", departure_time="09:30"),
        ],
    ),
    (
        "Kwame Mensah - plans changed, I'm taking Bear home today instead of Wednesday.",
        [
            c("search_owners", query="Mensah"),
            c("list_stays", owner_id="OW-1010", status="checked_in"),
            c("check_out_stay", stay_id="ST-40007", departure_time="10:00"),
        ],
    ),
    (
        "Sofia Marchetti. Can I collect Ziggy this evening instead of tomorrow? I'm here now, it's five past five.",
        [
            c("search_owners", query="Marchetti"),
            c("list_stays", dog_id="DG-2011", status="checked_in"),
            c("check_out_stay", stay_id="ST-40010", departure_time="17:05"),
        ],
    ),
    (
        "Priya Venkataraman - just Mango today please, Kaju's being picked up by my husband later. It's half three, "
        "sorry, traffic was awful.",
        [
            c("list_stays", dog_id="DG-2004", status="checked_in"),
            c("check_out_stay", stay_id="ST-40006", departure_time="15:30"),
        ],
    ),
    (
        "Priya here for Kaju. It's quarter past five.",
        [
            c("list_stays", dog_id="DG-2005", status="checked_in"),
            c("check_out_stay", NO, stay_id="ST-40005", departure_time="5:15pm"),
            c("check_out_stay", stay_id="ST-40005", departure_time="17:15"),
        ],
    ),
    (
        "Ruth Abernethy, collecting Fern bang on midday.",
        [
            c("search_owners", query="Abernethy"),
            c("list_stays", owner_id="OW-1009", status="checked_in"),
            c("check_out_stay", stay_id="ST-40008", departure_time="12:00"),
        ],
    ),
    # ---------------------------------------------------------- bookings
    (
        "Eleanor Pryce. I need to board Luna tonight and tomorrow night - something's come up. A standard kennel is fine, "
        "and I can leave her with you now.",
        [
            c("search_owners", query="Pryce"),
            c("get_dog", dog_id="DG-2008"),
            c("list_units", size_class="medium", suite_type="standard", check_in="2026-03-16", check_out="2026-03-18"),
            c("create_stay", dog_id="DG-2008", unit_id="KU-B06", check_in="2026-03-16", check_out="2026-03-18"),
            c("check_in_stay", stay_id="ST-40024"),
        ],
    ),
    (
        "Eleanor Pryce - can Luna stay tonight and tomorrow? I'm outside with her now. Kennel A3 if you can, she knows it.",
        [
            c("search_owners", query="Pryce"),
            c("create_stay", dog_id="DG-2008", unit_id="KU-A03", check_in="2026-03-16", check_out="2026-03-18"),
            c("check_in_stay", NO, stay_id="ST-40024"),
        ],
    ),
    (
        "Hi, Tom Ashworth. I'd like to book Bruno in for the weekend, Friday the 27th to Sunday the 29th.",
        [
            c("search_owners", query="Ashworth"),
            c("get_dog", dog_id="DG-2007"),
            c("create_stay", NO, dog_id="DG-2007", unit_id="KU-B01", check_in="2026-03-27", check_out="2026-03-29"),
        ],
    ),
    (
        "Priya again - can Tilly come and stay from Thursday to Sunday? A small kennel is fine.",
        [
            c("search_owners", query="Venkataraman"),
            c("create_stay", NO, dog_id="DG-2006", unit_id="KU-A01", check_in="2026-03-19", check_out="2026-03-22"),
        ],
    ),
    (
        "Priya Venkataraman: the vet did Tilly's lepto booster yesterday, certificate says valid to 15 March 2027 "
        "(Larkspur Veterinary Group). Please update it and book her in Thursday to Sunday, small kennel.",
        [
            c("get_dog", dog_id="DG-2006"),
            c(
                "update_vaccination",
                dog_id="DG-2006",
                vaccine="lepto",
                expiry_date="2027-03-15",
                vet_practice="Larkspur Veterinary Group",
            ),
            c("list_units", size_class="small", check_in="2026-03-19", check_out="2026-03-22"),
            c("create_stay", dog_id="DG-2006", unit_id="KU-A01", check_in="2026-03-19", check_out="2026-03-22"),
        ],
    ),
    (
        "Gareth Llewellyn. Can Hector stay with you from the 24th to the 26th? Whatever's cheapest.",
        [
            c("search_owners", query="Llewellyn"),
            c("create_stay", NO, dog_id="DG-2009", unit_id="KU-B01", check_in="2026-03-24", check_out="2026-03-26"),
            c("list_units", size_class="giant", check_in="2026-03-24", check_out="2026-03-26"),
            c("create_stay", dog_id="DG-2009", unit_id="KU-C01", check_in="2026-03-24", check_out="2026-03-26"),
        ],
    ),
    (
        "Kwame Mensah here - I'm keeping Bear's Friday booking but he now needs to stay Wednesday and Thursday night "
        "too, 18th to the 20th. Same kennel if possible.",
        [
            c("list_stays", dog_id="DG-2015"),
            c("create_stay", dog_id="DG-2015", unit_id="KU-C01", check_in="2026-03-18", check_out="2026-03-20"),
        ],
    ),
    (
        "Sofia Marchetti - could Ziggy have a garden suite, G2, from the 20th to the 24th?",
        [
            c("search_owners", query="Marchetti"),
            c("create_stay", NO, dog_id="DG-2011", unit_id="KU-G02", check_in="2026-03-20", check_out="2026-03-24"),
            c("list_units", size_class="small", check_in="2026-03-20", check_out="2026-03-24"),
            c("create_stay", dog_id="DG-2011", unit_id="KU-A02", check_in="2026-03-20", check_out="2026-03-24"),
        ],
    ),
    (
        "Margaret Hartley - please book Biscuit in from the 5th to the 8th of April, standard kennel.",
        [
            c("search_owners", query="Hartley"),
            c("create_stay", NO, dog_id="DG-2001", unit_id="KU-A03", check_in="2026-04-05", check_out="2026-04-08"),
            c("list_stays", dog_id="DG-2001", status="reserved"),
        ],
    ),
    (
        "Eleanor Pryce. I'd like Luna in kennel A5 from the 30th of March to the 2nd of April, she had it last time. "
        "How much will it be?",
        [
            c("search_owners", query="Pryce"),
            c("create_stay", NO, dog_id="DG-2008", unit_id="KU-A05", check_in="2026-03-30", check_out="2026-04-02"),
            c("list_units", size_class="medium", check_in="2026-03-30", check_out="2026-04-02"),
            c("quote_stay", dog_id="DG-2008", suite_type="standard", check_in="2026-03-30", check_out="2026-04-02"),
            c("create_stay", dog_id="DG-2008", unit_id="KU-A03", check_in="2026-03-30", check_out="2026-04-02"),
        ],
    ),
    (
        "Ruth Abernethy. Moss finally had his DHP booster - the card says valid until 10 March 2029. Can he come and "
        "stay the 21st to the 23rd? A standard kennel please.",
        [
            c("search_owners", query="Abernethy"),
            c("get_dog", dog_id="DG-2014"),
            c("update_vaccination", dog_id="DG-2014", vaccine="dhp", expiry_date="2029-03-10"),
            c("list_units", size_class="medium", suite_type="standard", check_in="2026-03-21", check_out="2026-03-23"),
            c("create_stay", dog_id="DG-2014", unit_id="KU-B06", check_in="2026-03-21", check_out="2026-03-23"),
        ],
    ),
    # ---------------------------------------------------------- quotes
    (
        "How much would it be for Otis to stay in a deluxe kennel over Easter, 2nd to 9th of April? It's Daniel Okafor.",
        [
            c("search_owners", query="Okafor"),
            c("quote_stay", dog_id="DG-2003", suite_type="deluxe", check_in="2026-04-02", check_out="2026-04-09"),
        ],
    ),
    (
        "Tom Ashworth - just asking the price for Bruno in a standard kennel, 6th to 10th of April.",
        [
            c("search_owners", query="Ashworth"),
            c("quote_stay", dog_id="DG-2007", suite_type="standard", check_in="2026-04-06", check_out="2026-04-10"),
        ],
    ),
    (
        "Isla Fairbairn: I'm away for five weeks from the 1st of May. What would Dotty's stay cost in a luxury suite?",
        [
            c("search_owners", query="Fairbairn"),
            c("quote_stay", NO, dog_id="DG-2016", suite_type="luxury", check_in="2026-05-01", check_out="2026-06-05"),
            c("quote_stay", dog_id="DG-2016", suite_type="luxury", check_in="2026-05-01", check_out="2026-05-29"),
        ],
    ),
    (
        "Sofia Marchetti - what would a garden suite cost for Ziggy from the 10th to the 14th of April?",
        [
            c("search_owners", query="Marchetti"),
            c("quote_stay", dog_id="DG-2011", suite_type="luxury", check_in="2026-04-10", check_out="2026-04-14"),
        ],
    ),
    (
        "Benedict Crane. What's the price for Winnie in a standard kennel over the May half-term, 22nd to 26th?",
        [
            c("search_owners", query="Crane"),
            c("quote_stay", dog_id="DG-2018", suite_type="standard", check_in="2026-05-22", check_out="2026-05-26"),
        ],
    ),
    (
        "Could you price Tilly for a standard kennel from the 20th to the 23rd? It's Priya.",
        [
            c("search_owners", query="Priya"),
            c("quote_stay", dog_id="DG-2006", suite_type="standard", check_in="2026-03-20", check_out="2026-03-23"),
        ],
    ),
    # ---------------------------------------------------------- cancellations
    (
        "Priya: we're not going away at Easter after all - please cancel Kaju's booking.",
        [
            c("search_owners", query="Venkataraman"),
            c("list_stays", dog_id="DG-2005", status="reserved"),
            c("cancel_stay", stay_id="ST-40019", reason="Holiday cancelled"),
        ],
    ),
    (
        "Ruth Abernethy - I need to cancel Fern's stay starting on the 25th, sorry.",
        [
            c("search_owners", query="Abernethy"),
            c("list_stays", owner_id="OW-1009", status="reserved"),
            c("cancel_stay", stay_id="ST-40020"),
        ],
    ),
    (
        "Kwame Mensah. Please cancel Bear's booking for this Friday, we're staying home.",
        [
            c("search_owners", query="Mensah"),
            c("list_stays", dog_id="DG-2015", status="reserved"),
            c("cancel_stay", stay_id="ST-40021", reason="Trip cancelled"),
        ],
    ),
    (
        "Sofia Marchetti - please cancel Ziggy's stay, I'm taking him home now. It's two o'clock.",
        [
            c("list_stays", dog_id="DG-2011"),
            c("cancel_stay", NO, stay_id="ST-40010"),
            c("check_out_stay", stay_id="ST-40010", departure_time="14:00"),
        ],
    ),
    (
        "Eleanor Pryce: could you cancel Luna's booking for the 20th of March? I want to be sure it's gone.",
        [
            c("search_owners", query="Pryce"),
            c("list_stays", dog_id="DG-2008"),
            c("cancel_stay", NO, stay_id="ST-40004"),
        ],
    ),
    (
        "Ruth Abernethy. Moss was meant to come in on Saturday but he's been poorly - please cancel that booking.",
        [
            c("list_stays", dog_id="DG-2014", status="reserved"),
            c("cancel_stay", stay_id="ST-40018", reason="Dog unwell; did not arrive 14 March"),
        ],
    ),
    (
        "Margaret Hartley - cancel Biscuit's Easter stay please, the trip's off.",
        [
            c("search_owners", query="Hartley"),
            c("list_stays", owner_id="OW-1001", status="reserved"),
            c("cancel_stay", stay_id="ST-40022", reason="Trip cancelled"),
        ],
    ),
    (
        "Sofia Marchetti - can you cancel Ziggy's stay at the end of the month?",
        [c("list_stays", dog_id="DG-2011", status="reserved"), c("cancel_stay", stay_id="ST-40023")],
    ),
    (
        "Daniel Okafor on the phone - I can't bring Otis in today after all, the trip's off. Please cancel.",
        [
            c("search_owners", query="Okafor"),
            c("list_stays", dog_id="DG-2003", status="reserved"),
            c("cancel_stay", stay_id="ST-40012", reason="Trip called off on the day"),
        ],
    ),
    # ---------------------------------------------------------- extras
    (
        "Gareth Llewellyn: while Hector's with you this week, could he have a full groom before he comes home?",
        [
            c("list_stays", dog_id="DG-2009", status="reserved"),
            c("add_stay_extra", stay_id="ST-40014", code="GRM-FULL", quantity=1),
        ],
    ),
    (
        "Margaret Hartley - can Biscuit have a quick bath before I collect him today?",
        [
            c("list_stays", dog_id="DG-2001", status="checked_in"),
            c("add_stay_extra", NO, stay_id="ST-40011", code="GRM-BATH", quantity=1),
        ],
    ),
    (
        "Daniel Okafor - Otis is on antibiotics for five days. Can your staff give them to him during his stay?",
        [
            c("search_owners", query="Okafor"),
            c("list_stays", dog_id="DG-2003", status="reserved"),
            c("add_stay_extra", NO, stay_id="ST-40012", code="MED-ADMIN", quantity=5),
        ],
    ),
    (
        "Isla Fairbairn - please add the daily photo updates to Dotty's stay, every day she's there.",
        [
            c("list_stays", dog_id="DG-2016", status="reserved"),
            c("add_stay_extra", NO, stay_id="ST-40013", code="PHOTO-DAILY", quantity=8),
            c("add_stay_extra", stay_id="ST-40013", code="PHOTO-DAILY", quantity=7),
        ],
    ),
    (
        "Daniel Okafor. Otis stayed with you at the start of the month - can you add a training session to that stay? "
        "The trainer saw him on the Thursday.",
        [
            c("list_stays", dog_id="DG-2003"),
            c("add_stay_extra", NO, stay_id="ST-40002", code="TRN-SESSION", quantity=1),
        ],
    ),
    (
        "Kwame Mensah: Bear could do with some extra exercise - two one-to-one walks please.",
        [
            c("search_owners", query="Mensah"),
            c("list_stays", dog_id="DG-2015", status="checked_in"),
            c("add_stay_extra", stay_id="ST-40007", code="WALK-SOLO", quantity=2),
        ],
    ),
    (
        "Daniel Okafor - please book two training sessions for Otis while he's with you this week.",
        [
            c("list_stays", dog_id="DG-2003", status="reserved"),
            c("add_stay_extra", stay_id="ST-40012", code="TRN-SESSION", quantity=2, note="Loose-lead walking"),
        ],
    ),
    (
        "Ruth Abernethy - Fern's booked in from the 25th. Can she have a bath on her last day?",
        [
            c("list_stays", dog_id="DG-2013", status="reserved"),
            c("add_stay_extra", stay_id="ST-40020", code="GRM-BATH", quantity=1, note="On 28 March, last full day"),
        ],
    ),
    (
        "Benedict Crane: Winnie's going to need a full groom during her fortnight with you.",
        [
            c("search_owners", query="Crane"),
            c("list_stays", dog_id="DG-2018", status="reserved"),
            c("add_stay_extra", stay_id="ST-40015", code="GRM-FULL", quantity=1),
        ],
    ),
    # ---------------------------------------------------------- vaccinations
    (
        "Tom Ashworth - here's Bruno's kennel cough certificate, can you put it on his file?",
        [
            c("search_owners", query="Ashworth"),
            c("get_dog", dog_id="DG-2007"),
            c("update_vaccination", NO, dog_id="DG-2007", vaccine="kennel_cough", expiry_date="2026-03-01"),
        ],
    ),
    (
        "Margaret Hartley. Biscuit had a DHP jab - the certificate says valid to 1 May 2027. Please update his record.",
        [
            c("get_dog", dog_id="DG-2001"),
            c("update_vaccination", NO, dog_id="DG-2001", vaccine="dhp", expiry_date="2027-05-01"),
        ],
    ),
    (
        "Margaret Hartley - Pepper's kennel cough has been renewed, valid until 12 March 2027 from Millbrook.",
        [
            c("search_owners", query="Hartley"),
            c("get_dog", dog_id="DG-2002"),
            c(
                "update_vaccination",
                dog_id="DG-2002",
                vaccine="kennel_cough",
                expiry_date="2027-03-12",
                vet_practice="Millbrook Veterinary Centre",
            ),
        ],
    ),
    (
        "Isla Fairbairn: the vet emailed you Dotty's lepto booster certificate - it now runs to 20 February 2027.",
        [
            c("get_dog", dog_id="DG-2016"),
            c("update_vaccination", dog_id="DG-2016", vaccine="lepto", expiry_date="2027-02-20"),
        ],
    ),
    (
        "Hamish Dunleavy - I've brought Rex's new DHP certificate, valid to 10 January 2029.",
        [
            c("search_owners", query="Dunleavy"),
            c("update_vaccination", dog_id="DG-2012", vaccine="dhp", expiry_date="2029-01-10"),
        ],
    ),
    (
        "Benedict Crane - Archie's kennel cough booster is done, certificate valid until 1 March 2027.",
        [
            c("get_dog", dog_id="DG-2017"),
            c(
                "update_vaccination",
                dog_id="DG-2017",
                vaccine="kennel_cough",
                expiry_date="2027-03-01",
                vet_practice="Fenwick Cross Vets",
            ),
        ],
    ),
    # ---------------------------------------------------------- daycare passes
    (
        "Isla Fairbairn - I'd like a 10-day daycare pass for Dotty please.",
        [
            c("search_owners", query="Fairbairn"),
            c("get_dog", dog_id="DG-2016"),
            c("buy_daycare_pass", NO, dog_id="DG-2016", pass_type="DAY-10"),
        ],
    ),
    (
        "Hamish Dunleavy. Rex needs to burn some energy - can I buy a five-day daycare pass?",
        [c("search_owners", query="Dunleavy"), c("buy_daycare_pass", NO, dog_id="DG-2012", pass_type="DAY-5")],
    ),
    (
        "Ruth Abernethy - Fern loves daycare, can I get her another 5-day pass?",
        [c("search_owners", query="Abernethy"), c("buy_daycare_pass", NO, dog_id="DG-2013", pass_type="DAY-5")],
    ),
    (
        "Margaret Hartley: I'd like to start Biscuit on daycare again - a 5-day pass please, use my credit first.",
        [
            c("search_owners", query="Hartley"),
            c("get_dog", dog_id="DG-2001"),
            c("buy_daycare_pass", dog_id="DG-2001", pass_type="DAY-5"),
        ],
    ),
    (
        "Eleanor Pryce - Luna's 10-day pass is all used up. Can I buy another one?",
        [c("search_owners", query="Pryce"), c("buy_daycare_pass", dog_id="DG-2008", pass_type="DAY-10")],
    ),
    (
        "Priya: can Kaju do a single day of daycare next week? I'll pay for it now.",
        [c("search_owners", query="Venkataraman"), c("buy_daycare_pass", dog_id="DG-2005", pass_type="DAY-SINGLE")],
    ),
    (
        "Daniel Okafor - thinking of daycare for Otis on my office days. A 5-day pass please.",
        [c("search_owners", query="Okafor"), c("buy_daycare_pass", dog_id="DG-2003", pass_type="DAY-5")],
    ),
    (
        "Benedict Crane. Can I buy Winnie a single daycare day to try it out?",
        [c("search_owners", query="Crane"), c("buy_daycare_pass", dog_id="DG-2018", pass_type="DAY-SINGLE")],
    ),
    (
        "Kwame Mensah - ten-day daycare pass for Bear please.",
        [c("search_owners", query="Mensah"), c("buy_daycare_pass", dog_id="DG-2015", pass_type="DAY-10")],
    ),
    (
        "Gareth Llewellyn: Nell gets lonely at home on Tuesdays - a 5-day daycare pass for her please.",
        [c("get_dog", dog_id="DG-2010"), c("buy_daycare_pass", dog_id="DG-2010", pass_type="DAY-5")],
    ),
    # ---------------------------------------------------------- enquiries
    (
        "Kwame Mensah - when is Bear next booked in with you?",
        [c("search_owners", query="Mensah"), c("list_stays", dog_id="DG-2015", status="reserved")],
    ),
    (
        "Do you have any large kennels free from Friday the 27th to Sunday the 29th of March?",
        [c("list_units", size_class="large", check_in="2026-03-27", check_out="2026-03-29")],
    ),
    (
        "Can you check my dog's record? The number on my card is DG-2099. My phone is 07700 900967.",
        [c("get_dog", NO, dog_id="DG-2099"), c("search_owners", query="07700 900967")],
    ),
    (
        "Which dogs are staying with us tonight? (kennel manager at the desk)",
        [c("list_stays", date="2026-03-16", status="checked_in")],
    ),
    (
        "Is there a giant kennel free on the 20th and 21st of March? Asking for my Mastiff, we're new.",
        [c("list_units", size_class="giant", check_in="2026-03-20", check_out="2026-03-22")],
    ),
    (
        "Hello, my number is 900 633 - can you tell me what bookings I have?",
        [c("search_owners", query="900 633"), c("list_stays", owner_id="OW-1006")],
    ),
    (
        "Is kennel B4 back in use yet? My Rottweiler liked that one.",
        [c("list_units", size_class="large", include_out_of_service=True)],
    ),
]


def build():
    rng = random.Random(SEED)
    sessions = []
    for instr, calls in SESSIONS:
        if isinstance(instr, list):
            instr = rng.choice(instr)
        sessions.append((instr, calls))
    rng.shuffle(sessions)
    return sessions


def main():
    with open(os.path.join(HERE, "data.json"), encoding="utf-8") as fh:
        data = json.load(fh)
    desk = adapter.make()
    rows, total, refused = [], 0, 0
    for i, (instr, calls) in enumerate(build()):
        tid = f"kennels-{i:03d}"
        desk.reset(data)
        for n, (name, args, expect_ok) in enumerate(calls):
            res = desk.call(name, args)
            if res["ok"] != expect_ok:
                print(
                    f"{tid} call {n} {name} {json.dumps(args)}: expected "
                    f"{'accepted' if expect_ok else 'refused'}, got {json.dumps(res)[:400]}"
                )
                return 1
            total += 1
            refused += 0 if res["ok"] else 1
        rows.append(
            {"id": tid, "instruction": instr, "calls": [{"name": name, "arguments": args} for name, args, _ in calls]}
        )
    with open(os.path.join(HERE, "trajectories.jsonl"), "w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} trajectories, {total} calls, {refused} refused ({100.0 * refused / total:.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
