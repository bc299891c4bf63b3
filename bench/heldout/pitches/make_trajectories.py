#!/usr/bin/env python3
"""Write trajectories.jsonl: recorded desk sessions for the pitch & court hire desk.

Each session starts from data.json. Sessions are run live against adapter.py while they
are recorded, so later calls can use ids the system handed back. Seeded and deterministic.
Prints the number of sessions, calls and the refused share.
"""

import json
import os
import random
import sys

sys.dont_write_bytecode = True
import adapter  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20260414


class Recorder:
    def __init__(self, data):
        self.desk = adapter.make()
        self.desk.reset(data)
        self.calls = []
        self.refused = 0

    def __call__(self, name, **arguments):
        res = self.desk.call(name, arguments)
        self.calls.append({"name": name, "arguments": arguments})
        if not res["ok"]:
            self.refused += 1
        return res["output"]


SESSIONS = []


def session(instruction):
    def wrap(fn):
        SESSIONS.append((instruction, fn))
        return fn

    return wrap


# ---------------------------------------------------------------- enquiries
@session(
    "Hi, it's Dave from Ashcombe Athletic (H-2001). Can you tell me what's left on our "
    "account and which bookings we've got open at the moment?"
)
def s_balance_athletic(c):
    c("get_hirer", hirer_id="H-2001")
    c("list_bookings", hirer_id="H-2001", status="confirmed")


@session(
    "Millbrook Corporate 5s here. What exactly did we pay for the main 3G on Thursday the "
    "16th? Booking BK-40019, I need it for the treasurer."
)
def s_corporate_receipt(c):
    c("get_hirer", hirer_id="H-2012")
    c("get_booking", booking_id="BK-40019")


@session(
    "Could you send me everything that's on at Millbrook Leisure Park on Thursday 16 April? "
    "We're planning car park cover."
)
def s_millbrook_thursday(c):
    out = c("list_bookings", venue_id="V-12", date_from="2026-04-16", date_to="2026-04-16")
    c("get_booking", booking_id=out["bookings"][-1]["booking_id"])


@session("Sam from Millbrook Rangers Youth. Which of our Tuesday block weeks are still only provisional? Block BL-501.")
def s_rangers_block_left(c):
    c("get_hirer", hirer_id="H-2002")
    c("list_bookings", block_id="BL-501", status="provisional")


@session(
    "Riverside Hockey Club treasurer. Can you check our balance and list our confirmed "
    "sessions, please? Account H-2005."
)
def s_hockey_account(c):
    c("get_hirer", hirer_id="H-2005")
    c("list_bookings", hirer_id="H-2005", status="confirmed")


@session("Hello, Priya Ramanathan. What have I got booked with you, and how much credit is on my account?")
def s_priya_account(c):
    c("get_hirer", hirer_id="H-2008")
    c("list_bookings", hirer_id="H-2008")


@session("Can you list all the Corporate 5s League bookings from today to the end of May? Account H-2012.")
def s_corporate_list(c):
    c("list_bookings", hirer_id="H-2012", date_from="2026-04-14", date_to="2026-05-31")


@session("Which acrylic tennis courts are free on Saturday 25 April from 10 till 12?")
def s_search_acrylic(c):
    c("search_pitches", surface="acrylic_court", date="2026-04-25", start_hour=10, hours=2)


@session(
    "Grace Oduya (H-2010). How much would Court 1 at Hollins Lane be for two hours on "
    "Saturday morning, 18 April, from 10?"
)
def s_grace_quote_court(c):
    c("search_pitches", venue_id="V-13", date="2026-04-18", start_hour=10, hours=2)
    c("quote_hire", hirer_id="H-2010", pitch_id="P-308", date="2026-04-18", start_hour=10, hours=2)


@session(
    "Grace again. Could you compare the small 3G and the main 3G at Millbrook for "
    "Wednesday 22 April, 18:00 for an hour? I'll decide later."
)
def s_grace_compare(c):
    c("quote_hire", hirer_id="H-2010", pitch_id="P-305", date="2026-04-22", start_hour=18, hours=1)
    c("quote_hire", hirer_id="H-2010", pitch_id="P-304", date="2026-04-22", start_hour=18, hours=1)


@session(
    "Eastfield Netball (H-2004): what would the netball court at Eastfield cost on "
    "Thursday 30 April, 7 till 9pm, with a pair of posts?"
)
def s_netball_quote(c):
    c("get_hirer", hirer_id="H-2004")
    c(
        "quote_hire",
        hirer_id="H-2004",
        pitch_id="P-311",
        date="2026-04-30",
        start_hour=19,
        hours=2,
        equipment=[{"equipment_id": "EQ-105", "quantity": 1}],
    )


@session("Which pitches do you have closed at the moment, and why? I run the Junior league fixtures.")
def s_closed_pitches(c):
    c("search_pitches", include_closed=True, venue_id="V-11")
    c("search_pitches", include_closed=True, venue_id="V-13")


# ---------------------------------------------------------------- new bookings
@session(
    "Priya Ramanathan here. I'd like a tennis court at Hollins Lane tomorrow, 15 April, "
    "6pm for one hour. Whatever's free."
)
def s_priya_court_tomorrow(c):
    c("get_hirer", hirer_id="H-2008")
    c("search_pitches", venue_id="V-13", date="2026-04-15", start_hour=18, hours=1)
    c("create_booking", hirer_id="H-2008", pitch_id="P-310", date="2026-04-15", start_hour=18, hours=1)


@session(
    "Hi, Grace Oduya. Can I have Millbrook 3G Small-sided B next Wednesday the 22nd at 7pm "
    "for an hour? If that one's no good, put me on the other small-sided pitch."
)
def s_grace_unlit(c):
    c("create_booking", hirer_id="H-2010", pitch_id="P-306", date="2026-04-22", start_hour=19, hours=1)
    c("search_pitches", venue_id="V-12", surface="3g", date="2026-04-22", start_hour=19, hours=1)
    c("create_booking", hirer_id="H-2010", pitch_id="P-305", date="2026-04-22", start_hour=19, hours=1)


@session(
    "Hannah at Millbrook Corporate 5s. Please price up and book the 3G Main for Thursday "
    "23 April, 6 till 9, with two pairs of 5-a-side goals."
)
def s_corporate_book(c):
    c(
        "quote_hire",
        hirer_id="H-2012",
        pitch_id="P-304",
        date="2026-04-23",
        start_hour=18,
        hours=3,
        equipment=[{"equipment_id": "EQ-101", "quantity": 2}],
    )
    c(
        "create_booking",
        hirer_id="H-2012",
        pitch_id="P-304",
        date="2026-04-23",
        start_hour=18,
        hours=3,
        equipment=[{"equipment_id": "EQ-101", "quantity": 2}],
        note="League round 14",
    )


@session(
    "Tom Hargreaves. I want a floodlit 3G pitch at Millbrook on Friday 24 April at 7pm for "
    "an hour, five-a-side with mates."
)
def s_tom_floodlit(c):
    c("get_hirer", hirer_id="H-2009")
    c("search_pitches", venue_id="V-12", surface="3g", floodlit=True, date="2026-04-24", start_hour=19, hours=1)
    c("create_booking", hirer_id="H-2009", pitch_id="P-305", date="2026-04-24", start_hour=19, hours=1)


@session(
    "Tom Hargreaves again. Can I book the Eastfield netball court this Thursday, 16th, at "
    "2pm for an hour? If not, the earliest you can do that evening."
)
def s_tom_eastfield_hours(c):
    c("get_hirer", hirer_id="H-2009")
    c("create_booking", hirer_id="H-2009", pitch_id="P-311", date="2026-04-16", start_hour=14, hours=1)
    c("create_booking", hirer_id="H-2009", pitch_id="P-311", date="2026-04-16", start_hour=17, hours=1)


@session(
    "St Aidan's Ultimate Frisbee (H-2014). We'd like the Eastfield grass field on Sunday "
    "26 April from 10 for four hours, or as long as you'll let us."
)
def s_frisbee_hours(c):
    c("get_hirer", hirer_id="H-2014")
    c("create_booking", hirer_id="H-2014", pitch_id="P-312", date="2026-04-26", start_hour=10, hours=4)
    c(
        "create_booking",
        hirer_id="H-2014",
        pitch_id="P-312",
        date="2026-04-26",
        start_hour=10,
        hours=3,
        note="Club tournament practice",
    )


@session(
    "Priya again - I'd really like Court 1 at Hollins Lane tomorrow at 6pm, can you book "
    "it? Otherwise any court there at 7."
)
def s_priya_clash(c):
    c("create_booking", hirer_id="H-2008", pitch_id="P-308", date="2026-04-15", start_hour=18, hours=1)
    c("search_pitches", venue_id="V-13", date="2026-04-15", start_hour=19, hours=1)
    c("create_booking", hirer_id="H-2008", pitch_id="P-310", date="2026-04-15", start_hour=19, hours=1)


@session(
    "Grace Oduya. I need a 9-a-side grass pitch on Saturday 18 April, 10 till 12. The "
    "Ashcombe junior pitch would be ideal, otherwise something similar."
)
def s_grace_closed_pitch(c):
    c("create_booking", hirer_id="H-2010", pitch_id="P-303", date="2026-04-18", start_hour=10, hours=2)
    c("search_pitches", surface="grass", date="2026-04-18", start_hour=10, hours=2)
    c("create_booking", hirer_id="H-2010", pitch_id="P-312", date="2026-04-18", start_hour=10, hours=2)


@session(
    "Tom Hargreaves. Can I hire Ashcombe Pitch 1 on Sunday the 19th for a kickabout? "
    "Otherwise just tell me what 3G Small-sided B would cost at 2pm for two hours."
)
def s_tom_club_only(c):
    c("create_booking", hirer_id="H-2009", pitch_id="P-301", date="2026-04-19", start_hour=14, hours=2)
    c("quote_hire", hirer_id="H-2009", pitch_id="P-306", date="2026-04-19", start_hour=14, hours=2)


@session(
    "Priya Ramanathan. Book Court 1 for Wednesday 22 April 6-8pm and take it from my "
    "account credit, please. If there's not enough, I'll pay by card."
)
def s_priya_pay(c):
    out = c("create_booking", hirer_id="H-2008", pitch_id="P-308", date="2026-04-22", start_hour=18, hours=2)
    bid = out["booking_id"]
    c("set_booking_status", booking_id=bid, status="confirmed", payment_method="account")
    c("set_booking_status", booking_id=bid, status="confirmed", payment_method="card")


@session(
    "Grace Oduya. I'd like to get Court 1 at Hollins Lane for Saturday 1 August, 10am, an "
    "hour. If that's too early to book, what would 11 July cost?"
)
def s_grace_too_far(c):
    c("get_hirer", hirer_id="H-2010")
    c("create_booking", hirer_id="H-2010", pitch_id="P-308", date="2026-08-01", start_hour=10, hours=1)
    c("quote_hire", hirer_id="H-2010", pitch_id="P-308", date="2026-07-11", start_hour=10, hours=1)


@session(
    "Northgate Walking Football. Any chance of 3G Small-sided B today at 10? If not, "
    "the next free hour after our 11 o'clock session."
)
def s_walking_today(c):
    c("create_booking", hirer_id="H-2007", pitch_id="P-306", date="2026-04-14", start_hour=10, hours=1)
    c("search_pitches", venue_id="V-12", date="2026-04-14", start_hour=12, hours=1)
    c("create_booking", hirer_id="H-2007", pitch_id="P-306", date="2026-04-14", start_hour=12, hours=1)


@session(
    "Tom Hargreaves. Small-sided A at Millbrook on Thursday 16th at 7pm for an hour, and "
    "I need two pairs of the portable goals. One pair will do if that's all you've got."
)
def s_tom_goals_stock(c):
    c("search_pitches", venue_id="V-12", date="2026-04-16", start_hour=19, hours=1)
    c(
        "create_booking",
        hirer_id="H-2009",
        pitch_id="P-305",
        date="2026-04-16",
        start_hour=19,
        hours=1,
        equipment=[{"equipment_id": "EQ-101", "quantity": 2}],
    )
    c(
        "create_booking",
        hirer_id="H-2009",
        pitch_id="P-305",
        date="2026-04-16",
        start_hour=19,
        hours=1,
        equipment=[{"equipment_id": "EQ-101", "quantity": 1}],
    )


@session(
    "Ruth from Hollins Lane Tennis Club. Book Court 1 for Wednesday 22nd, 7 till 9pm, and take it from our account."
)
def s_tennis_book_confirm(c):
    c("get_hirer", hirer_id="H-2003")
    out = c("create_booking", hirer_id="H-2003", pitch_id="P-308", date="2026-04-22", start_hour=19, hours=2)
    c("set_booking_status", booking_id=out["booking_id"], status="confirmed", payment_method="account")


@session(
    "Alan, Northgate Walking Football. Can we have Small-sided B tomorrow, the 15th, at "
    "11 for an hour, with a training kit? I'll pay by card now."
)
def s_walking_book_card(c):
    c("get_hirer", hirer_id="H-2007")
    out = c(
        "create_booking",
        hirer_id="H-2007",
        pitch_id="P-306",
        date="2026-04-15",
        start_hour=11,
        hours=1,
        equipment=[{"equipment_id": "EQ-107", "quantity": 1}],
    )
    c("set_booking_status", booking_id=out["booking_id"], status="confirmed", payment_method="card")


@session(
    "Hannah, Corporate 5s. We want the 3G Main on Saturday 25 April, 9 till 11, for a cup game. Card payment please."
)
def s_corporate_card(c):
    q = c("quote_hire", hirer_id="H-2012", pitch_id="P-304", date="2026-04-25", start_hour=9, hours=2)
    out = c(
        "create_booking",
        hirer_id="H-2012",
        pitch_id="P-304",
        date="2026-04-25",
        start_hour=9,
        hours=2,
        note=f"Cup game; quoted {q['price']['total']:.2f}",
    )
    c("set_booking_status", booking_id=out["booking_id"], status="confirmed", payment_method="card")


@session(
    "Dave, Ashcombe Athletic. Our reserves need a pitch on Saturday the 18th at 2pm for "
    "two hours as well as the first team. Corner flags on it, and pay from the account."
)
def s_athletic_reserves(c):
    c("search_pitches", surface="grass", date="2026-04-18", start_hour=14, hours=2)
    out = c(
        "create_booking",
        hirer_id="H-2001",
        pitch_id="P-302",
        date="2026-04-18",
        start_hour=14,
        hours=2,
        equipment=[{"equipment_id": "EQ-104", "quantity": 1}],
        note="Reserves fixture",
    )
    c("set_booking_status", booking_id=out["booking_id"], status="confirmed", payment_method="account")


@session("Ruth, Hollins Lane Tennis. Court 1 this Saturday 9 till 11 for juniors please, and add a training kit.")
def s_tennis_junior(c):
    c("get_hirer", hirer_id="H-2003")
    out = c("create_booking", hirer_id="H-2003", pitch_id="P-308", date="2026-04-18", start_hour=9, hours=2)
    c("add_equipment", booking_id=out["booking_id"], equipment_id="EQ-107", quantity=1)


@session("This is Callum Fenwick. I want to book a tennis court at Hollins Lane for Monday 20th at 6pm.")
def s_callum(c):
    c("get_hirer", hirer_id="H-2011")
    c("create_booking", hirer_id="H-2011", pitch_id="P-308", date="2026-04-20", start_hour=18, hours=1)


@session(
    "Keisha at Eastfield Netball. We'd like the Eastfield court every Thursday, 7 till 9pm, "
    "for eight weeks starting 23 April. What would that come to? Go ahead if it's fine."
)
def s_netball_block(c):
    c("get_hirer", hirer_id="H-2004")
    c("quote_hire", hirer_id="H-2004", pitch_id="P-311", date="2026-04-23", start_hour=19, hours=2, block=True)
    c(
        "create_block_booking",
        hirer_id="H-2004",
        pitch_id="P-311",
        first_date="2026-04-23",
        start_hour=19,
        hours=2,
        weeks=8,
        note="Summer league training",
    )


@session(
    "Grace Oduya. Could I have Court 1 every Monday at 6pm for the next ten weeks as a "
    "block booking? Starting 20 April."
)
def s_grace_block(c):
    c("get_hirer", hirer_id="H-2010")
    c(
        "create_block_booking",
        hirer_id="H-2010",
        pitch_id="P-308",
        first_date="2026-04-20",
        start_hour=18,
        hours=1,
        weeks=10,
    )


@session(
    "Corporate 5s League: we want the 3G Main every Thursday, 6 till 8, for ten weeks from "
    "this Thursday the 16th. If this week's a problem, start from the 23rd."
)
def s_corporate_block(c):
    c(
        "create_block_booking",
        hirer_id="H-2012",
        pitch_id="P-304",
        first_date="2026-04-16",
        start_hour=18,
        hours=2,
        weeks=10,
    )
    c(
        "create_block_booking",
        hirer_id="H-2012",
        pitch_id="P-304",
        first_date="2026-04-23",
        start_hour=18,
        hours=2,
        weeks=10,
        note="Summer league",
    )


@session(
    "Ashcombe Athletic: block booking for Pitch 2, Saturdays 10 till 12, sixteen weeks from "
    "23 May for pre-season. If sixteen won't fit the season, do as many as you can."
)
def s_athletic_block(c):
    c(
        "create_block_booking",
        hirer_id="H-2001",
        pitch_id="P-302",
        first_date="2026-05-23",
        start_hour=10,
        hours=2,
        weeks=16,
    )
    c(
        "create_block_booking",
        hirer_id="H-2001",
        pitch_id="P-302",
        first_date="2026-05-23",
        start_hour=10,
        hours=2,
        weeks=15,
        note="Pre-season",
    )


@session(
    "St Aidan's Ultimate: block of six Sundays on the Eastfield grass field, 10 till 12, "
    "from 26 April. Please confirm the first week by card straight away."
)
def s_frisbee_block(c):
    out = c(
        "create_block_booking",
        hirer_id="H-2014",
        pitch_id="P-312",
        first_date="2026-04-26",
        start_hour=10,
        hours=2,
        weeks=6,
    )
    first = out["block"]["booking_ids"][0]
    c("set_booking_status", booking_id=first, status="confirmed", payment_method="card")


@session(
    "Northgate Walking Football. Can we have Small-sided B every Friday at 11 from this "
    "Friday right through to the end of August? If that's too long, the longest block "
    "you allow."
)
def s_walking_block(c):
    c(
        "create_block_booking",
        hirer_id="H-2007",
        pitch_id="P-306",
        first_date="2026-04-17",
        start_hour=11,
        hours=1,
        weeks=20,
    )
    c(
        "create_block_booking",
        hirer_id="H-2007",
        pitch_id="P-306",
        first_date="2026-04-17",
        start_hour=11,
        hours=1,
        weeks=16,
    )


@session(
    "Riverside Hockey. We'd like another block on the hockey pitch, Tuesdays 7 till 9pm, "
    "six weeks from 5 May, with hockey goals each week."
)
def s_hockey_block(c):
    c(
        "quote_hire",
        hirer_id="H-2005",
        pitch_id="P-307",
        date="2026-05-05",
        start_hour=19,
        hours=2,
        equipment=[{"equipment_id": "EQ-106", "quantity": 1}],
        block=True,
    )
    c(
        "create_block_booking",
        hirer_id="H-2005",
        pitch_id="P-307",
        first_date="2026-05-05",
        start_hour=19,
        hours=2,
        weeks=6,
        equipment=[{"equipment_id": "EQ-106", "quantity": 1}],
        note="Women's XI",
    )


# ---------------------------------------------------------------- confirmations
@session("Tom Hargreaves. I'd like to confirm my 3G booking for tomorrow lunchtime, BK-40017, and pay by card.")
def s_tom_confirm(c):
    c("get_booking", booking_id="BK-40017")
    c("set_booking_status", booking_id="BK-40017", status="confirmed", payment_method="card")


@session(
    "Gary from Sunday Vets. We want to confirm our booking on Ashcombe Pitch 2 for Sunday "
    "26 April and pay from the account."
)
def s_vets_confirm(c):
    c("get_hirer", hirer_id="H-2006")
    c("set_booking_status", booking_id="BK-40025", status="confirmed", payment_method="account")


@session(
    "Beth, St Aidan's Ultimate. Please confirm our Sunday booking BK-40022 from our account "
    "balance; if it won't stretch, card is fine."
)
def s_frisbee_confirm(c):
    c("get_booking", booking_id="BK-40022")
    c("set_booking_status", booking_id="BK-40022", status="confirmed", payment_method="account")
    c("set_booking_status", booking_id="BK-40022", status="confirmed", payment_method="card")


@session("Millbrook Rangers. Please confirm our Tuesday 5 May block week and take it from the account.")
def s_rangers_confirm(c):
    c("get_hirer", hirer_id="H-2002")
    c("set_booking_status", booking_id="BK-40005", status="confirmed", payment_method="account")


@session(
    "Dave, Ashcombe Athletic: confirm our 25 April booking on Pitch 2, paid from the "
    "account, and add line marking to it first."
)
def s_athletic_confirm(c):
    c("add_equipment", booking_id="BK-40024", equipment_id="EQ-103")
    c("set_booking_status", booking_id="BK-40024", status="confirmed", payment_method="account")
    c("get_hirer", hirer_id="H-2001")


# ---------------------------------------------------------------- played / close-out
@session("Desk close-out: Priya Ramanathan's court on Monday evening (BK-40013) went ahead, please mark it played.")
def s_priya_played(c):
    c("get_booking", booking_id="BK-40013")
    c("set_booking_status", booking_id="BK-40013", status="played")


@session(
    "Groundsman at Millbrook: Rangers' Sunday session on the 3G Main (BK-40014) left a torn "
    "patch by the penalty spot. Charge them the 60 pound repair and then close the booking "
    "off."
)
def s_rangers_damage(c):
    c("get_booking", booking_id="BK-40014")
    c(
        "report_incident",
        booking_id="BK-40014",
        category="pitch_damage",
        description="Torn carpet patch by penalty spot, repair by contractor.",
        charge=60,
    )
    c("set_booking_status", booking_id="BK-40014", status="played")


@session(
    "Grace Oduya says she's finished with her Friday slot on the small 3G and wants it "
    "marked as played now so it's off her list."
)
def s_grace_early_played(c):
    c("get_booking", booking_id="BK-40020")
    c("set_booking_status", booking_id="BK-40020", status="played")


@session(
    "Hollins Lane caretaker: Priya Ramanathan's party on Monday (BK-40013) were warned "
    "about playing music late; log it with no charge and mark the booking played."
)
def s_priya_warning(c):
    c(
        "report_incident",
        booking_id="BK-40013",
        category="misconduct",
        description="Loud music on court after 19:00; verbal warning given.",
        charge=0,
    )
    c("set_booking_status", booking_id="BK-40013", status="played")


# ---------------------------------------------------------------- cancellations
@session("Millbrook Rangers: we don't need the 28 April week of our Tuesday block any more, please cancel it.")
def s_rangers_cancel_week(c):
    c("cancel_booking", booking_id="BK-40004", reason="Squad away at tournament")
    c("list_bookings", block_id="BL-501")


@session("Riverside Hockey: cancel our session this Thursday the 16th, half the team are injured. What do we get back?")
def s_hockey_cancel(c):
    c("get_booking", booking_id="BK-40008")
    c("cancel_booking", booking_id="BK-40008", reason="Not enough players")


@session("Hollins Lane Tennis Club, cancelling tomorrow evening's Court 1 booking please, BK-40016.")
def s_tennis_cancel(c):
    c("get_booking", booking_id="BK-40016")
    c("cancel_booking", booking_id="BK-40016", reason="Coach unavailable")


@session("Alan at Northgate Walking Football. We can't make today's 11 o'clock. Cancel it; how much do we lose?")
def s_walking_cancel(c):
    c("get_booking", booking_id="BK-40015")
    c("cancel_booking", booking_id="BK-40015", reason="Minibus broken down")


@session("Grace Oduya. Please cancel my Court 2 booking on Monday 20th, BK-40023.")
def s_grace_cancel_cancelled(c):
    c("cancel_booking", booking_id="BK-40023", reason="No longer needed")
    c("get_booking", booking_id="BK-40023")


@session("Priya Ramanathan: I didn't turn up on Monday night (BK-40013), can I cancel it and get my money back?")
def s_priya_noshow(c):
    c("get_booking", booking_id="BK-40013")
    c("cancel_booking", booking_id="BK-40013", reason="Did not attend")


@session(
    "Parks manager: Ashcombe Pitch 2 is waterlogged and shut until the end of the month. "
    "Cancel whatever is booked on it from today and let the hirers know."
)
def s_waterlogged(c):
    out = c("list_bookings", pitch_id="P-302", date_from="2026-04-14", date_to="2026-04-30")
    for row in out["bookings"]:
        if row["status"] in ("provisional", "confirmed"):
            c(
                "cancel_booking",
                booking_id=row["booking_id"],
                initiated_by="council",
                reason="Pitch waterlogged; closed by parks manager",
            )


@session("Grace Oduya: cancel my Friday evening small 3G booking, BK-40020, I'm away that weekend.")
def s_grace_cancel_free(c):
    c("get_booking", booking_id="BK-40020")
    c("cancel_booking", booking_id="BK-40020", reason="Away that weekend")


@session(
    "Sam at Millbrook Rangers. Tonight's session on Small-sided A clashes with a school "
    "event, we have to cancel it. BK-40002."
)
def s_rangers_cancel_tonight(c):
    c("get_booking", booking_id="BK-40002")
    c("cancel_booking", booking_id="BK-40002", reason="Clash with school event")
    c("get_hirer", hirer_id="H-2002")


@session(
    "Eastfield school site manager: the netball court is needed for a school exam event "
    "on Thursday 16th; cancel the netball club's evening booking on our behalf."
)
def s_netball_council(c):
    c("list_bookings", pitch_id="P-311", date_from="2026-04-16", date_to="2026-04-16")
    c("cancel_booking", booking_id="BK-40018", initiated_by="council", reason="Site needed for school exam event")


@session(
    "Events team: Millbrook Small-sided A is being used for the May fun run on Tuesday "
    "12 May. Cancel the Rangers' block week that day."
)
def s_funrun(c):
    c("list_bookings", pitch_id="P-305", date_from="2026-05-12", date_to="2026-05-12")
    c("cancel_booking", booking_id="BK-40006", initiated_by="council", reason="Pitch used for May fun run")


# ---------------------------------------------------------------- equipment
@session(
    "Hannah, Corporate 5s. Can you put line marking on our Thursday 16th booking on the 3G "
    "Main? If you can't, a set of corner flags instead."
)
def s_corporate_linemark(c):
    c("add_equipment", booking_id="BK-40019", equipment_id="EQ-103")
    c("add_equipment", booking_id="BK-40019", equipment_id="EQ-104")


@session("Grace Oduya. Add a pair of portable goals to my Friday night booking on Small-sided A, please.")
def s_grace_goals(c):
    c("list_bookings", hirer_id="H-2010", status="confirmed")
    c("add_equipment", booking_id="BK-40020", equipment_id="EQ-101", quantity=1)


@session(
    "Ashcombe Athletic: we've got our own nets now, take the goal nets off Saturday's booking on Pitch 1 (BK-40021)."
)
def s_athletic_remove_nets(c):
    c("get_booking", booking_id="BK-40021")
    c("remove_equipment", booking_id="BK-40021", equipment_id="EQ-102")


@session("St Aidan's Ultimate: we only need one training kit on Sunday, not two. BK-40022.")
def s_frisbee_remove_kit(c):
    c("remove_equipment", booking_id="BK-40022", equipment_id="EQ-107", quantity=1)
    c("get_booking", booking_id="BK-40022")


@session(
    "Keisha, Eastfield Netball. Take the bibs and cones kit off Thursday's booking, BK-40018, we'll bring our own."
)
def s_netball_remove_missing(c):
    c("remove_equipment", booking_id="BK-40018", equipment_id="EQ-107")
    c("get_booking", booking_id="BK-40018")


@session(
    "Riverside Hockey. For the 23 April session (BK-40009) can we have three sets of "
    "hockey goals for a mini tournament? And two training kits."
)
def s_hockey_goals_limit(c):
    c("add_equipment", booking_id="BK-40009", equipment_id="EQ-106", quantity=2)
    c("add_equipment", booking_id="BK-40009", equipment_id="EQ-107", quantity=2)


@session(
    "Hannah, Corporate 5s. We only need one pair of portable goals on Thursday 16th, not "
    "two. Credit the difference please."
)
def s_corporate_remove_goal(c):
    c("get_booking", booking_id="BK-40019")
    c("remove_equipment", booking_id="BK-40019", equipment_id="EQ-101", quantity=1)


@session(
    "Ruth, Hollins Lane Tennis: add two training kits to our Court 1 booking tomorrow "
    "(BK-40016) for the junior session."
)
def s_tennis_add_kit(c):
    c("add_equipment", booking_id="BK-40016", equipment_id="EQ-107", quantity=2)
    c("get_hirer", hirer_id="H-2003")


# ---------------------------------------------------------------- incidents
@session(
    "Millbrook groundstaff: Riverside Hockey broke a pair of hockey goals at the 9 April "
    "session (BK-40007). Replacement cost 85 pounds, please charge it."
)
def s_hockey_goal_damage(c):
    c(
        "report_incident",
        booking_id="BK-40007",
        category="equipment_damage",
        description="Crossbar snapped on hire hockey goal; pair written off.",
        charge=85,
        equipment_id="EQ-106",
    )
    c("get_hirer", hirer_id="H-2005")


@session(
    "Millbrook duty officer: after Thursday's hockey session (BK-40007) the carpet seam "
    "has lifted near the D. No charge to the club, it's wear and tear, but shut the pitch "
    "and tell me who is booked on it."
)
def s_hockey_close_pitch(c):
    c(
        "report_incident",
        booking_id="BK-40007",
        category="pitch_damage",
        description="Carpet seam lifted near the D; wear and tear, no fault of hirer.",
        charge=0,
        close_pitch=True,
    )
    c("list_bookings", pitch_id="P-307", date_from="2026-04-14")


@session(
    "Millbrook groundstaff: Rangers' U12s overstayed by 40 minutes on 7 April (BK-40001). "
    "Charge the standard 15 pound overstay."
)
def s_rangers_overstay(c):
    c(
        "report_incident",
        booking_id="BK-40001",
        category="overstay",
        description="Stayed 40 minutes past end time; next hirer delayed.",
        charge=15,
    )
    c("get_hirer", hirer_id="H-2002")


@session(
    "Ashcombe groundsman: further turf damage found from the Sunday Vets game on 5 April "
    "(BK-40011), full returf quote is 1,450 pounds. Raise it, or log it for the manager "
    "if the desk can't."
)
def s_vets_big_claim(c):
    c(
        "report_incident",
        booking_id="BK-40011",
        category="pitch_damage",
        description="Further returfing needed after 5 April game.",
        charge=1450,
    )
    c(
        "report_incident",
        booking_id="BK-40011",
        category="pitch_damage",
        description="Returf quote 1450.00 referred to Facilities Manager for claim.",
        charge=0,
    )
    c("get_hirer", hirer_id="H-2006")


# ---------------------------------------------------------------- follow-ups
@session(
    "Grace Oduya. I'll take the small 3G on Wednesday 22nd at 6pm for an hour after all. "
    "Take it from my account, and add a training kit."
)
def s_grace_book_confirm(c):
    c("get_hirer", hirer_id="H-2010")
    out = c("create_booking", hirer_id="H-2010", pitch_id="P-305", date="2026-04-22", start_hour=18, hours=1)
    c("set_booking_status", booking_id=out["booking_id"], status="confirmed", payment_method="account")
    c("add_equipment", booking_id=out["booking_id"], equipment_id="EQ-107")


@session(
    "Hannah, Corporate 5s. Six Mondays on the 3G Main, 7 till 9pm, starting 20 April for "
    "the cup competition. Pay the first week from our account."
)
def s_corporate_monday_block(c):
    out = c(
        "create_block_booking",
        hirer_id="H-2012",
        pitch_id="P-304",
        first_date="2026-04-20",
        start_hour=19,
        hours=2,
        weeks=6,
        note="Cup competition",
    )
    c("list_bookings", block_id=out["block"]["block_id"])
    c("set_booking_status", booking_id=out["block"]["booking_ids"][0], status="confirmed", payment_method="account")


@session(
    "Dave, Ashcombe Athletic. Our Saturday game on Pitch 1 (BK-40021) has moved to Sunday "
    "19th, 10 till 12. Cancel Saturday and book the Sunday on the same pitch, paid from the "
    "account."
)
def s_athletic_move(c):
    c("get_booking", booking_id="BK-40021")
    c("cancel_booking", booking_id="BK-40021", reason="Fixture moved to Sunday by league")
    out = c(
        "create_booking",
        hirer_id="H-2001",
        pitch_id="P-301",
        date="2026-04-19",
        start_hour=10,
        hours=2,
        note="Rearranged from BK-40021",
    )
    c("set_booking_status", booking_id=out["booking_id"], status="confirmed", payment_method="account")


@session(
    "Keisha, Eastfield Netball. Please add a training kit to Thursday's court booking "
    "BK-40018 and take it from our balance."
)
def s_netball_add_kit(c):
    c("get_hirer", hirer_id="H-2004")
    c("add_equipment", booking_id="BK-40018", equipment_id="EQ-107")


@session("Tom Hargreaves. Any court free on Sunday 19th at 3pm for an hour? I'll pay by card right now.")
def s_tom_sunday_court(c):
    c("search_pitches", venue_id="V-13", date="2026-04-19", start_hour=15, hours=1)
    out = c("create_booking", hirer_id="H-2009", pitch_id="P-308", date="2026-04-19", start_hour=15, hours=1)
    c("set_booking_status", booking_id=out["booking_id"], status="confirmed", payment_method="card")


@session(
    "Sam, Millbrook Rangers. We'll keep the 28 April week after all - confirm it by card and add a set of corner flags."
)
def s_rangers_keep_week(c):
    c("get_booking", booking_id="BK-40004")
    c("set_booking_status", booking_id="BK-40004", status="confirmed", payment_method="card")
    c("add_equipment", booking_id="BK-40004", equipment_id="EQ-104")


@session("Riverside Hockey: for the last block week on 30 April (BK-40010) add one training kit please.")
def s_hockey_kit(c):
    c("get_booking", booking_id="BK-40010")
    c("add_equipment", booking_id="BK-40010", equipment_id="EQ-107", quantity=1)


@session(
    "Beth, St Aidan's Ultimate. Is the Eastfield grass field free on Sunday 19th in the "
    "afternoon, 2 till 4? If so book it with corner flags."
)
def s_frisbee_afternoon(c):
    c("get_hirer", hirer_id="H-2014")
    c("search_pitches", venue_id="V-14", surface="grass", date="2026-04-19", start_hour=14, hours=2)
    c(
        "create_booking",
        hirer_id="H-2014",
        pitch_id="P-312",
        date="2026-04-19",
        start_hour=14,
        hours=2,
        equipment=[{"equipment_id": "EQ-104", "quantity": 1}],
    )


def main():
    with open(os.path.join(HERE, "data.json"), encoding="utf-8") as f:
        data = json.load(f)
    rng = random.Random(SEED)
    order = list(range(len(SESSIONS)))
    rng.shuffle(order)
    lines, calls, refused = [], 0, 0
    for n, idx in enumerate(order):
        instruction, fn = SESSIONS[idx]
        rec = Recorder(data)
        fn(rec)
        calls += len(rec.calls)
        refused += rec.refused
        lines.append(
            json.dumps({"id": f"pitches-{n:03d}", "instruction": instruction, "calls": rec.calls}, ensure_ascii=False)
        )
    with open(os.path.join(HERE, "trajectories.jsonl"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(f"sessions: {len(lines)}")
    print(f"calls: {calls}")
    print(f"refused: {refused}")
    print(f"refused share: {refused / calls:.1%}")


if __name__ == "__main__":
    main()
