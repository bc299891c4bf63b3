"""Write trajectories.jsonl: desk sessions at Brellcombe Driving School (fictional).

Seeded and deterministic. Every session starts from data.json. Each call carries the
outcome the author expects (accepted or refused); the script replays every session
through adapter.py, stops if any outcome differs, and prints the refused share.
"""

import json
import os
import random

import adapter

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20260316
OK, NO = True, False


def ask(*variants):
    """One learner request; the seeded generator picks the wording."""
    return list(variants)


SESSIONS = []


def session(instruction, *calls):
    SESSIONS.append((instruction, [(name, args, ok) for name, args, ok in calls]))


# ---------------------------------------------------------------- tests
session(
    ask(
        "Hi, it's Aisha Rahman-Colby. I've just got back from my 9 o'clock with Marta - that was my tenth lesson. Can you sign it off and book my practical test at Brellcombe North on 14 April, 09:20 if it's free? Take the fee from my credit.",
        "Aisha Rahman-Colby here. This morning's lesson with Marta went fine, please mark it as done, then book me a test at Brellcombe North, Tuesday 14 April at 09:20, paid from my credit balance.",
    ),
    ("search_learners", {"name": "Rahman-Colby"}, OK),
    (
        "record_lesson_outcome",
        {
            "booking_id": "BK-50110",
            "outcome": "completed",
            "note": "Emergency stop and show-me/tell-me questions. Ready for test.",
        },
        OK,
    ),
    (
        "book_test",
        {
            "learner_id": "LR-2001",
            "date": "2026-04-14",
            "time": "09:20",
            "centre": "Brellcombe North",
            "payment_method": "credit",
        },
        OK,
    ),
)

session(
    ask(
        "My learner number is LR-2001. Could I book my driving test at Ashvale on 20 April at 10:40? I'll pay by card.",
        "LR-2001 here - please book me a practical test at Ashvale, Monday 20 April, 10:40, card payment.",
    ),
    ("get_learner", {"learner_id": "LR-2001"}, OK),
    (
        "book_test",
        {"learner_id": "LR-2001", "date": "2026-04-20", "time": "10:40", "centre": "Ashvale", "payment_method": "card"},
        NO,
    ),
)

session(
    ask(
        "Grace Whitcombe - I've done my ten lessons now. Saturday 18 April at 10:00 at Brellcombe North for my test please, from my credit.",
        "Hello, Grace Whitcombe. I'm ready for my test: Brellcombe North, Saturday the 18th of April, 10am. Use my credit.",
    ),
    ("search_learners", {"name": "Whitcombe"}, OK),
    (
        "book_test",
        {
            "learner_id": "LR-2007",
            "date": "2026-04-18",
            "time": "10:00",
            "centre": "Brellcombe North",
            "payment_method": "credit",
        },
        OK,
    ),
)

session(
    ask(
        "This is Chloe Ardmore. I'd like a second test date as a backup - 22 April at Ashvale, 13:30, by card.",
        "Chloe Ardmore here, can you also book me a test on 22 April at Ashvale at half one, card?",
    ),
    ("search_learners", {"name": "Chloe"}, OK),
    (
        "book_test",
        {"learner_id": "LR-2003", "date": "2026-04-22", "time": "13:30", "centre": "Ashvale", "payment_method": "card"},
        NO,
    ),
    ("get_learner", {"learner_id": "LR-2003"}, OK),
)

session(
    ask(
        "Ellie Strand here. Please book my test at Brellcombe North on Wednesday 15 April at 09:00, from my credit. If that can't be done, the 8th of April at the same time.",
        "It's Ellie Strand. I want my test on 15 April, 9am, Brellcombe North, paid from credit - or failing that Wednesday 8 April at 9.",
    ),
    ("search_learners", {"name": "Ellie Strand"}, OK),
    (
        "book_test",
        {
            "learner_id": "LR-2005",
            "date": "2026-04-15",
            "time": "09:00",
            "centre": "Brellcombe North",
            "payment_method": "credit",
        },
        NO,
    ),
    (
        "book_test",
        {
            "learner_id": "LR-2005",
            "date": "2026-04-08",
            "time": "09:00",
            "centre": "Brellcombe North",
            "payment_method": "credit",
        },
        OK,
    ),
)

session(
    ask(
        "Jamal Fenwick. I failed at Ashvale in February and want another go as soon as possible - this Friday if there's anything, otherwise Friday 27 March around 11. Card please.",
        "Hi, Jamal Fenwick. Rebook my test at Ashvale please, ideally Friday 20th; if not, Friday the 27th at about 11:06. I'll pay by card.",
    ),
    ("search_learners", {"name": "Fenwick"}, OK),
    (
        "book_test",
        {"learner_id": "LR-2010", "date": "2026-03-20", "time": "11:06", "centre": "Ashvale", "payment_method": "card"},
        NO,
    ),
    (
        "book_test",
        {"learner_id": "LR-2010", "date": "2026-03-27", "time": "11:06", "centre": "Ashvale", "payment_method": "card"},
        OK,
    ),
)

session(
    ask(
        "Liam Castellane, 07700 901259 - I've forgotten when my test is. Can you check?",
        "Can you remind me of my test date? Liam Castellane, mobile 07700 901259.",
    ),
    ("search_learners", {"phone": "07700 901259"}, OK),
    ("get_learner", {"learner_id": "LR-2012"}, OK),
)

# ---------------------------------------------------------------- lesson bookings
session(
    ask(
        "Hi, I'm Katie Drummond, new this month. Could I have a one-hour automatic lesson on Friday 20th, sometime in the afternoon? Take it from my credit.",
        "Katie Drummond - an hour in an automatic on Friday the 20th please, afternoon if possible, paid from my credit.",
    ),
    ("search_learners", {"name": "Drummond"}, OK),
    ("check_availability", {"date": "2026-03-20", "transmission": "automatic"}, OK),
    (
        "book_lesson",
        {
            "learner_id": "LR-2011",
            "instructor_id": "IN-303",
            "car_id": "CR-103",
            "date": "2026-03-20",
            "start": "14:00",
            "duration_min": 60,
            "payment_method": "credit",
        },
        OK,
    ),
)

session(
    ask(
        "Ben Tollervey, 07700 900217. 90 minutes automatic next Tuesday (24th) in the morning please, I'll pay on card.",
        "It's Ben Tollervey. Can I get a 90-minute automatic lesson on Tuesday 24 March, morning, card payment?",
    ),
    ("search_learners", {"phone": "07700 900217"}, OK),
    ("check_availability", {"date": "2026-03-24", "transmission": "automatic"}, OK),
    (
        "book_lesson",
        {
            "learner_id": "LR-2002",
            "instructor_id": "IN-303",
            "car_id": "CR-103",
            "date": "2026-03-24",
            "start": "10:00",
            "duration_min": 90,
            "payment_method": "card",
        },
        OK,
    ),
)

session(
    ask(
        "Maya Thornbury. How much is a two-hour manual lesson? If it's more than my credit I'll pay by card - Wednesday 25th, early afternoon, please.",
        "Maya Thornbury here. I'd like a 2-hour manual lesson on Wednesday 25 March after lunch. What does it cost? Card is fine if my credit won't cover it.",
    ),
    ("search_learners", {"name": "Thornbury"}, OK),
    ("quote_lesson", {"transmission": "manual", "duration_min": 120, "learner_id": "LR-2013"}, OK),
    ("check_availability", {"date": "2026-03-25", "transmission": "manual"}, OK),
    (
        "book_lesson",
        {
            "learner_id": "LR-2013",
            "instructor_id": "IN-302",
            "car_id": "CR-102",
            "date": "2026-03-25",
            "start": "13:00",
            "duration_min": 120,
            "payment_method": "card",
        },
        OK,
    ),
)

session(
    ask(
        "Imogen Petrakis. Two hours automatic on Monday 23rd from 3pm, picked up from college, using my package please.",
        "Hi, Imogen Petrakis - can you book a two-hour automatic lesson Monday 23 March at 15:00, pick-up at college, paid from my block?",
    ),
    ("search_learners", {"name": "Petrakis"}, OK),
    ("check_availability", {"date": "2026-03-23", "transmission": "automatic"}, OK),
    (
        "book_lesson",
        {
            "learner_id": "LR-2009",
            "instructor_id": "IN-306",
            "car_id": "CR-106",
            "date": "2026-03-23",
            "start": "15:00",
            "duration_min": 120,
            "payment_method": "package",
            "pickup": "college",
        },
        OK,
    ),
)

session(
    ask(
        "LR-2001 - one more hour with Marta on Thursday 19th at 5pm, out of my package.",
        "Aisha (LR-2001). Please book an hour with Marta at 17:00 on Thursday the 19th using my lesson package.",
    ),
    ("get_learner", {"learner_id": "LR-2001"}, OK),
    ("check_availability", {"date": "2026-03-19", "transmission": "manual", "instructor_id": "IN-301"}, OK),
    (
        "book_lesson",
        {
            "learner_id": "LR-2001",
            "instructor_id": "IN-301",
            "car_id": "CR-101",
            "date": "2026-03-19",
            "start": "17:00",
            "duration_min": 60,
            "payment_method": "package",
        },
        OK,
    ),
)

session(
    ask(
        "Noah Pemberton-Hale. What would 90 minutes automatic cost me? If my credit covers it, book Friday 27th first thing.",
        "Hi, it's Noah Pemberton-Hale. Price for a 90-minute automatic lesson? Book it for the morning of Friday 27 March from my credit if there's enough.",
    ),
    ("search_learners", {"name": "Pemberton"}, OK),
    ("quote_lesson", {"transmission": "automatic", "duration_min": 90, "learner_id": "LR-2014"}, OK),
    ("check_availability", {"date": "2026-03-27", "transmission": "automatic"}, OK),
    (
        "book_lesson",
        {
            "learner_id": "LR-2014",
            "instructor_id": "IN-306",
            "car_id": "CR-106",
            "date": "2026-03-27",
            "start": "09:30",
            "duration_min": 90,
            "payment_method": "credit",
        },
        OK,
    ),
)

session(
    ask(
        "Farid Nasseri. Another refresher please - one hour automatic, Thursday 26th at 6pm, pick me up from work. Card.",
        "Farid Nasseri here, I'd like another refresher lesson: automatic, an hour, 26 March at 18:00 from my work address, paid by card.",
    ),
    ("search_learners", {"name": "Nasseri"}, OK),
    ("check_availability", {"date": "2026-03-26", "transmission": "automatic"}, OK),
    (
        "book_lesson",
        {
            "learner_id": "LR-2006",
            "instructor_id": "IN-306",
            "car_id": "CR-106",
            "date": "2026-03-26",
            "start": "18:00",
            "duration_min": 60,
            "payment_method": "card",
            "pickup": "work",
        },
        OK,
    ),
)

session(
    ask(
        "Jamal Fenwick - can I have an hour with Dev on Saturday 28th at 9? Card.",
        "It's Jamal Fenwick. Book me in with Dev, Saturday 28 March, 9am, one hour manual, I'll pay by card.",
    ),
    ("search_learners", {"name": "Jamal"}, OK),
    (
        "book_lesson",
        {
            "learner_id": "LR-2010",
            "instructor_id": "IN-302",
            "car_id": "CR-102",
            "date": "2026-03-28",
            "start": "09:00",
            "duration_min": 60,
            "payment_method": "card",
        },
        OK,
    ),
)

session(
    ask(
        "Grace Whitcombe. 90 minutes manual on Friday 3 April at 10, from my credit please. What will it cost?",
        "Hi, Grace Whitcombe. I'd like a 90-minute manual lesson at 10am on Friday the 3rd of April, paid from credit - how much is that?",
    ),
    ("search_learners", {"name": "Grace"}, OK),
    ("quote_lesson", {"transmission": "manual", "duration_min": 90, "learner_id": "LR-2007"}, OK),
    ("check_availability", {"date": "2026-04-03", "transmission": "manual"}, OK),
    (
        "book_lesson",
        {
            "learner_id": "LR-2007",
            "instructor_id": "IN-301",
            "car_id": "CR-101",
            "date": "2026-04-03",
            "start": "10:00",
            "duration_min": 90,
            "payment_method": "credit",
        },
        OK,
    ),
)

session(
    ask(
        "Liam Castellane (LR-2012). Use my last package lesson for an hour on Monday 30th at 8am, then sell me another 10-lesson manual block - from my credit if possible, otherwise card.",
        "LR-2012, Liam. Book an hour at 08:00 on Monday 30 March with the last lesson on my block, and then I want a new block of 10 manual lessons. Credit first, card if that's not enough.",
    ),
    ("get_learner", {"learner_id": "LR-2012"}, OK),
    (
        "book_lesson",
        {
            "learner_id": "LR-2012",
            "instructor_id": "IN-301",
            "car_id": "CR-101",
            "date": "2026-03-30",
            "start": "08:00",
            "duration_min": 60,
            "payment_method": "package",
        },
        OK,
    ),
    ("purchase_package", {"learner_id": "LR-2012", "price_id": "PR-04", "payment_method": "credit"}, NO),
    ("purchase_package", {"learner_id": "LR-2012", "price_id": "PR-04", "payment_method": "card"}, OK),
)

session(
    ask(
        "Daniel Okafor-Reid. I want to book a manual lesson on Thursday 19th at 10 with whoever's free, from my credit.",
        "Hi, Daniel Okafor-Reid here - can I get a manual lesson Thursday 19 March at 10am? Use my credit.",
    ),
    ("search_learners", {"name": "Okafor"}, OK),
    (
        "book_lesson",
        {
            "learner_id": "LR-2004",
            "instructor_id": "IN-301",
            "car_id": "CR-101",
            "date": "2026-03-19",
            "start": "10:00",
            "duration_min": 60,
            "payment_method": "credit",
        },
        NO,
    ),
)

session(
    ask(
        "Harvey Lund. Your online booking keeps refusing me - what's wrong with my account? And did I really miss a lesson earlier this month?",
        "It's Harvey Lund, I can't book online any more. Can you check my account, and also whether that lesson on the 6th was marked as missed?",
    ),
    ("search_learners", {"name": "Harvey"}, OK),
    ("get_learner", {"learner_id": "LR-2008"}, OK),
    ("list_bookings", {"learner_id": "LR-2008"}, OK),
)

session(
    ask(
        "Ellie Strand (LR-2005). Automatic lesson from my package on Tuesday 14 April at 10 please. If that doesn't work, Thursday 9 April at 10.",
        "LR-2005: one hour automatic, Tuesday 14 April at 10am, package. Otherwise the Thursday before, 9 April, same time.",
    ),
    ("get_learner", {"learner_id": "LR-2005"}, OK),
    (
        "book_lesson",
        {
            "learner_id": "LR-2005",
            "instructor_id": "IN-303",
            "car_id": "CR-103",
            "date": "2026-04-14",
            "start": "10:00",
            "duration_min": 60,
            "payment_method": "package",
        },
        NO,
    ),
    (
        "book_lesson",
        {
            "learner_id": "LR-2005",
            "instructor_id": "IN-303",
            "car_id": "CR-103",
            "date": "2026-04-09",
            "start": "10:00",
            "duration_min": 60,
            "payment_method": "package",
        },
        OK,
    ),
)

session(
    ask(
        "Maya Thornbury. I'd like Tomasz tomorrow (Tuesday) at 4pm for an hour - card.",
        "Maya Thornbury - can I have a lesson with Tomasz on Tuesday 17th at 16:00? One hour, card.",
    ),
    ("search_learners", {"name": "Maya"}, OK),
    ("check_availability", {"date": "2026-03-17", "transmission": "manual", "instructor_id": "IN-304"}, OK),
    (
        "book_lesson",
        {
            "learner_id": "LR-2013",
            "instructor_id": "IN-304",
            "car_id": "CR-104",
            "date": "2026-03-17",
            "start": "16:00",
            "duration_min": 60,
            "payment_method": "card",
        },
        NO,
    ),
    (
        "book_lesson",
        {
            "learner_id": "LR-2013",
            "instructor_id": "IN-304",
            "car_id": "CR-107",
            "date": "2026-03-17",
            "start": "16:00",
            "duration_min": 60,
            "payment_method": "card",
        },
        OK,
    ),
)

session(
    ask(
        "Katie Drummond. I had a taster with Helen - can I book her on Tuesday 31st in the morning? If not, anyone automatic at 10. Card.",
        "Hi, Katie Drummond. I'd like Helen again on Tuesday 31 March, morning; otherwise any automatic instructor at 10am. I'll pay by card.",
    ),
    ("search_learners", {"name": "Katie"}, OK),
    ("check_availability", {"date": "2026-03-31", "transmission": "automatic", "instructor_id": "IN-305"}, NO),
    ("check_availability", {"date": "2026-03-31", "transmission": "automatic"}, OK),
    (
        "book_lesson",
        {
            "learner_id": "LR-2011",
            "instructor_id": "IN-303",
            "car_id": "CR-103",
            "date": "2026-03-31",
            "start": "10:00",
            "duration_min": 60,
            "payment_method": "card",
        },
        OK,
    ),
)

session(
    ask(
        "Noah Pemberton-Hale. Could Dev take me out in the automatic pool car on Saturday 21st at 10? Otherwise whoever teaches automatic then. Card.",
        "Noah Pemberton-Hale: Saturday 21 March, 10am, an hour in an automatic - I'd like Dev if he can, card payment.",
    ),
    ("search_learners", {"name": "Noah"}, OK),
    (
        "book_lesson",
        {
            "learner_id": "LR-2014",
            "instructor_id": "IN-302",
            "car_id": "CR-108",
            "date": "2026-03-21",
            "start": "10:00",
            "duration_min": 60,
            "payment_method": "card",
        },
        NO,
    ),
    ("check_availability", {"date": "2026-03-21", "transmission": "automatic"}, OK),
    (
        "book_lesson",
        {
            "learner_id": "LR-2014",
            "instructor_id": "IN-303",
            "car_id": "CR-103",
            "date": "2026-03-21",
            "start": "10:00",
            "duration_min": 60,
            "payment_method": "card",
        },
        OK,
    ),
)

session(
    ask(
        "LR-2014 here. I'd like Priya at 4pm on Thursday 19th, or failing that anyone automatic around midday that day. From my credit.",
        "Noah (LR-2014): a lesson with Priya on Thursday 19 March at 16:00 please - if she's full, any automatic instructor about noon. Pay from credit.",
    ),
    (
        "book_lesson",
        {
            "learner_id": "LR-2014",
            "instructor_id": "IN-303",
            "car_id": "CR-103",
            "date": "2026-03-19",
            "start": "16:00",
            "duration_min": 60,
            "payment_method": "credit",
        },
        NO,
    ),
    ("check_availability", {"date": "2026-03-19", "transmission": "automatic"}, OK),
    (
        "book_lesson",
        {
            "learner_id": "LR-2014",
            "instructor_id": "IN-306",
            "car_id": "CR-108",
            "date": "2026-03-19",
            "start": "12:00",
            "duration_min": 60,
            "payment_method": "credit",
        },
        OK,
    ),
)

session(
    ask(
        "Chloe Ardmore. Can Marta fit me in on Wednesday 18th at 2:30? If not, later that afternoon. Card.",
        "It's Chloe Ardmore - an hour with Marta on Wednesday the 18th, 14:30 ideally, or later that afternoon. I'll pay by card.",
    ),
    ("search_learners", {"name": "Ardmore"}, OK),
    (
        "book_lesson",
        {
            "learner_id": "LR-2003",
            "instructor_id": "IN-301",
            "car_id": "CR-101",
            "date": "2026-03-18",
            "start": "14:30",
            "duration_min": 60,
            "payment_method": "card",
        },
        NO,
    ),
    (
        "book_lesson",
        {
            "learner_id": "LR-2003",
            "instructor_id": "IN-301",
            "car_id": "CR-101",
            "date": "2026-03-18",
            "start": "16:00",
            "duration_min": 60,
            "payment_method": "card",
        },
        OK,
    ),
)

session(
    ask(
        "Imogen Petrakis (LR-2009). 90 minutes with Priya tomorrow at 10, from my package. If the package can't do 90, make it an hour.",
        "LR-2009 - Imogen. Tuesday 17th, 10am with Priya, 90 minutes out of my block please; if that's not allowed just do one hour.",
    ),
    ("get_learner", {"learner_id": "LR-2009"}, OK),
    (
        "book_lesson",
        {
            "learner_id": "LR-2009",
            "instructor_id": "IN-303",
            "car_id": "CR-103",
            "date": "2026-03-17",
            "start": "10:00",
            "duration_min": 90,
            "payment_method": "package",
        },
        NO,
    ),
    (
        "book_lesson",
        {
            "learner_id": "LR-2009",
            "instructor_id": "IN-303",
            "car_id": "CR-103",
            "date": "2026-03-17",
            "start": "10:00",
            "duration_min": 60,
            "payment_method": "package",
        },
        OK,
    ),
)

session(
    ask(
        "Ben Tollervey. Hour with Priya on Wednesday 25th at 3pm. Can it come out of my credit? If not I'll use my card.",
        "Ben Tollervey here: Wednesday 25 March, 15:00, one hour with Priya - from credit, or card if I haven't got enough.",
    ),
    ("search_learners", {"name": "Tollervey"}, OK),
    (
        "book_lesson",
        {
            "learner_id": "LR-2002",
            "instructor_id": "IN-303",
            "car_id": "CR-103",
            "date": "2026-03-25",
            "start": "15:00",
            "duration_min": 60,
            "payment_method": "credit",
        },
        NO,
    ),
    (
        "book_lesson",
        {
            "learner_id": "LR-2002",
            "instructor_id": "IN-303",
            "car_id": "CR-103",
            "date": "2026-03-25",
            "start": "15:00",
            "duration_min": 60,
            "payment_method": "card",
        },
        OK,
    ),
)

session(
    ask(
        "Katie Drummond. Is anyone teaching automatic on Sunday 22nd? If not, Saturday 21st at noon with Priya, card.",
        "Do you do Sunday lessons? Katie Drummond - automatic, Sunday 22nd; otherwise Saturday the 21st at 12 with Priya, paid by card.",
    ),
    ("search_learners", {"name": "Katie Drummond"}, OK),
    ("check_availability", {"date": "2026-03-22", "transmission": "automatic"}, OK),
    (
        "book_lesson",
        {
            "learner_id": "LR-2011",
            "instructor_id": "IN-303",
            "car_id": "CR-103",
            "date": "2026-03-21",
            "start": "12:00",
            "duration_min": 60,
            "payment_method": "card",
        },
        OK,
    ),
)

# ---------------------------------------------------------------- quotes
session(
    ask(
        "Just a price check: how much is a 90-minute lesson in an automatic?",
        "What do you charge for an hour and a half in an automatic car?",
    ),
    ("quote_lesson", {"transmission": "automatic", "duration_min": 90}, OK),
)

session(
    ask(
        "Aisha Rahman-Colby. What would a two-hour manual lesson cost, and can my package cover it?",
        "Hi, Aisha Rahman-Colby - if I booked two hours manual, would it come off my package? What's the price?",
    ),
    ("search_learners", {"name": "Aisha"}, OK),
    ("quote_lesson", {"transmission": "manual", "duration_min": 120, "learner_id": "LR-2001"}, OK),
)

session(
    ask(
        "Do you do 45-minute manual lessons? How much? Otherwise what's the hourly price?",
        "How much for a 45 minute manual lesson - or if you don't do those, a standard hour?",
    ),
    ("quote_lesson", {"transmission": "manual", "duration_min": 45}, NO),
    ("quote_lesson", {"transmission": "manual", "duration_min": 60}, OK),
)

session(
    ask(
        "Ben Tollervey (LR-2002). How much is a two-hour automatic session, and what happens if I cancel late?",
        "LR-2002 - price for two hours automatic please, and what's the fee if I have to cancel at short notice?",
    ),
    ("quote_lesson", {"transmission": "automatic", "duration_min": 120, "learner_id": "LR-2002"}, OK),
)

# ---------------------------------------------------------------- cancellations
session(
    ask(
        "Aisha Rahman-Colby (LR-2001). I can't make tomorrow's 3pm lesson - please cancel it.",
        "LR-2001: something's come up, cancel my lesson tomorrow afternoon please.",
    ),
    ("list_bookings", {"learner_id": "LR-2001", "status": "booked"}, OK),
    ("cancel_lesson", {"booking_id": "BK-50112", "reason": "learner"}, OK),
)

session(
    ask(
        "Liam Castellane. I have to cancel Wednesday's two-hour lesson - what do I get back?",
        "It's Liam Castellane; please cancel my 10am on Wednesday 18th and tell me what's refunded.",
    ),
    ("search_learners", {"name": "Castellane"}, OK),
    ("list_bookings", {"learner_id": "LR-2012", "status": "booked"}, OK),
    ("cancel_lesson", {"booking_id": "BK-50113", "reason": "learner"}, OK),
)

session(
    ask(
        "Grace Whitcombe. Please cancel my 90-minute lesson on Wednesday afternoon.",
        "Grace Whitcombe here, can you cancel the 2pm lesson on Wednesday 18 March?",
    ),
    ("search_learners", {"name": "Whitcombe"}, OK),
    ("list_bookings", {"learner_id": "LR-2007", "status": "booked"}, OK),
    ("cancel_lesson", {"booking_id": "BK-50114", "reason": "learner"}, OK),
)

session(
    ask(
        "Ellie Strand (07700 900533). Cancel my Thursday 9am lesson please - will I get the package lesson back?",
        "Ellie Strand, 07700 900533. I need to cancel my lesson on Thursday the 19th; I paid with my package.",
    ),
    ("search_learners", {"phone": "07700 900533"}, OK),
    ("list_bookings", {"learner_id": "LR-2005", "status": "booked"}, OK),
    ("cancel_lesson", {"booking_id": "BK-50115", "reason": "learner"}, OK),
)

session(
    ask(
        "Noah Pemberton-Hale (LR-2014). Please cancel my lesson this Friday. I paid by card - where does the money go?",
        "LR-2014, Noah. Cancel Friday 20th's lesson please; it was paid on my card.",
    ),
    ("list_bookings", {"learner_id": "LR-2014"}, OK),
    ("cancel_lesson", {"booking_id": "BK-50117", "reason": "learner"}, OK),
)

session(
    ask(
        "Katie Drummond. Priya just texted me that she can't do Thursday 19th any more. Can you cancel that lesson and refund me?",
        "Hi, Katie Drummond - my instructor Priya has cancelled on me for Thursday the 19th. Please cancel it on your side and refund me.",
    ),
    ("search_learners", {"name": "Drummond"}, OK),
    ("list_bookings", {"learner_id": "LR-2011", "status": "booked"}, OK),
    ("cancel_lesson", {"booking_id": "BK-50125", "reason": "school", "note": "Instructor unavailable."}, OK),
)

session(
    ask(
        "Ben Tollervey. I overslept and missed my 10 o'clock lesson this morning. Can you cancel it and refund me?",
        "It's Ben Tollervey - I completely missed my lesson at ten today. Can I get it cancelled and my money back?",
    ),
    ("search_learners", {"name": "Ben Tollervey"}, OK),
    ("cancel_lesson", {"booking_id": "BK-50111", "reason": "learner"}, NO),
    (
        "record_lesson_outcome",
        {"booking_id": "BK-50111", "outcome": "no_show", "note": "Learner phoned at noon: overslept."},
        OK,
    ),
)

session(
    ask(
        "Chloe Ardmore. Please cancel my lesson with Dev on Monday 23rd.",
        "Chloe Ardmore here, I won't need my 1pm lesson on Monday 23 March - please cancel it.",
    ),
    ("search_learners", {"name": "Ardmore"}, OK),
    ("list_bookings", {"learner_id": "LR-2003", "status": "booked"}, OK),
    ("cancel_lesson", {"booking_id": "BK-50119", "reason": "learner"}, OK),
)

session(
    ask(
        "Farid Nasseri (LR-2006). Cancel my refresher on Tuesday 24th please.",
        "LR-2006 - please cancel next Tuesday's evening lesson.",
    ),
    ("list_bookings", {"learner_id": "LR-2006", "status": "booked"}, OK),
    ("cancel_lesson", {"booking_id": "BK-50120", "reason": "learner"}, OK),
)

session(
    ask(
        "Liam Castellane (LR-2012). Cancel my lesson on Thursday 26th, and since I'll have package lessons back, I'd like to buy a new 10-lesson manual block on my card anyway.",
        "LR-2012: cancel the 26 March lesson please, then sell me another 10-lesson manual block, card.",
    ),
    ("cancel_lesson", {"booking_id": "BK-50122", "reason": "learner"}, OK),
    ("purchase_package", {"learner_id": "LR-2012", "price_id": "PR-04", "payment_method": "card"}, NO),
)

session(
    ask(
        "Jamal Fenwick. Cancel Saturday's 9am lesson please - I'm away that weekend.",
        "Hi, Jamal Fenwick - I'm away this weekend, so please cancel my Saturday morning lesson.",
    ),
    ("search_learners", {"name": "Fenwick"}, OK),
    ("list_bookings", {"learner_id": "LR-2010", "status": "booked"}, OK),
    ("cancel_lesson", {"booking_id": "BK-50118", "reason": "learner"}, OK),
)

# ---------------------------------------------------------------- reschedules
session(
    ask(
        "Noah (LR-2014). Can you move Friday's 11am with Priya to the same time the following Friday, 27th?",
        "LR-2014 - push my lesson on Friday 20th back a week to Friday 27 March, 11:00, same instructor.",
    ),
    ("list_bookings", {"learner_id": "LR-2014", "status": "booked"}, OK),
    ("reschedule_lesson", {"booking_id": "BK-50117", "date": "2026-03-27", "start": "11:00"}, OK),
)

session(
    ask(
        "Ellie Strand (LR-2005). Move my Thursday lesson to Saturday 21st at 9 please. If you can't move it, cancel it and book me Saturday 9am from my package instead.",
        "LR-2005, Ellie. I'd like Thursday's lesson moved to Saturday the 21st, 9am. If it can't be moved, cancel and rebook it on the package.",
    ),
    ("list_bookings", {"learner_id": "LR-2005", "status": "booked"}, OK),
    ("reschedule_lesson", {"booking_id": "BK-50115", "date": "2026-03-21", "start": "09:00"}, NO),
    ("cancel_lesson", {"booking_id": "BK-50115", "reason": "learner"}, OK),
    (
        "book_lesson",
        {
            "learner_id": "LR-2005",
            "instructor_id": "IN-303",
            "car_id": "CR-103",
            "date": "2026-03-21",
            "start": "09:00",
            "duration_min": 60,
            "payment_method": "package",
        },
        OK,
    ),
)

session(
    ask(
        "Liam Castellane (LR-2012). Can Wednesday's 10am two-hour lesson move to Friday at the same time?",
        "LR-2012: please shift my two-hour lesson on 18 March to Friday 20 March at 10:00.",
    ),
    ("list_bookings", {"learner_id": "LR-2012", "status": "booked"}, OK),
    ("reschedule_lesson", {"booking_id": "BK-50113", "date": "2026-03-20", "start": "10:00"}, NO),
)

session(
    ask(
        "Ben Tollervey. Move Thursday's 2pm lesson with Priya to Friday 20th at 2pm please.",
        "It's Ben Tollervey; can my 14:00 on Thursday 19th become 14:00 on Friday the 20th, still with Priya?",
    ),
    ("search_learners", {"name": "Tollervey"}, OK),
    ("list_bookings", {"learner_id": "LR-2002", "status": "booked"}, OK),
    ("reschedule_lesson", {"booking_id": "BK-50126", "date": "2026-03-20", "start": "14:00"}, OK),
)

session(
    ask(
        "Grace Whitcombe. Could my Wednesday 2pm lesson move to Friday 20th at 2pm, same instructor?",
        "Grace Whitcombe - I'd like to move the 90-minute lesson on Wednesday 18th to Friday 20 March, 14:00, still with Marta.",
    ),
    ("search_learners", {"name": "Grace Whitcombe"}, OK),
    ("list_bookings", {"learner_id": "LR-2007", "status": "booked"}, OK),
    ("check_availability", {"date": "2026-03-20", "transmission": "manual", "instructor_id": "IN-301"}, OK),
    ("reschedule_lesson", {"booking_id": "BK-50114", "date": "2026-03-20", "start": "14:00"}, OK),
)

session(
    ask(
        "Katie Drummond (LR-2011). Please move my 90-minute lesson on Wednesday 25th to Tuesday 24th at 10.",
        "LR-2011 - can the lesson on 25 March move a day earlier, Tuesday 24th at 10am?",
    ),
    ("list_bookings", {"learner_id": "LR-2011", "status": "booked"}, OK),
    ("reschedule_lesson", {"booking_id": "BK-50121", "date": "2026-03-24", "start": "10:00"}, OK),
)

session(
    ask(
        "Farid Nasseri. Move my Tuesday 24th evening refresher to Wednesday 25th, same time.",
        "It's Farid Nasseri, can you change my 6pm lesson from Tuesday 24th to Wednesday 25th at 6pm?",
    ),
    ("search_learners", {"name": "Farid"}, OK),
    ("list_bookings", {"learner_id": "LR-2006", "status": "booked"}, OK),
    ("reschedule_lesson", {"booking_id": "BK-50120", "date": "2026-03-25", "start": "18:00"}, OK),
)

session(
    ask(
        "Chloe Ardmore (LR-2003). Can my Monday 23rd 1pm lesson move to Tuesday 24th at 1pm? If Dev doesn't do Tuesdays I'm fine with Marta in her car.",
        "LR-2003 - move Monday 23 March 13:00 to Tuesday 24th 13:00 please; Marta is fine if Dev isn't around.",
    ),
    ("reschedule_lesson", {"booking_id": "BK-50119", "date": "2026-03-24", "start": "13:00"}, NO),
    (
        "reschedule_lesson",
        {
            "booking_id": "BK-50119",
            "date": "2026-03-24",
            "start": "13:00",
            "instructor_id": "IN-301",
            "car_id": "CR-101",
        },
        OK,
    ),
)

session(
    ask(
        "Imogen Petrakis (LR-2009). Please push my two-hour lesson on Thursday to Friday 20th at 4pm, same car and instructor.",
        "LR-2009: move Thursday's 4pm two-hour lesson to the same time on Friday 20 March.",
    ),
    ("list_bookings", {"learner_id": "LR-2009", "status": "booked"}, OK),
    ("check_availability", {"date": "2026-03-20", "transmission": "automatic", "instructor_id": "IN-306"}, OK),
    ("reschedule_lesson", {"booking_id": "BK-50116", "date": "2026-03-20", "start": "16:00"}, OK),
)

# ---------------------------------------------------------------- lesson outcomes
session(
    ask(
        "Ben Tollervey. Oluwaseun asked me to tell the desk my lesson this morning is done - can you sign it off? How many have I completed now?",
        "Hi, Ben Tollervey. I had my lesson with Oluwaseun earlier today; he said to get the desk to mark it complete. What's my lesson count?",
    ),
    ("list_bookings", {"learner_id": "LR-2002", "status": "booked"}, OK),
    ("record_lesson_outcome", {"booking_id": "BK-50126", "outcome": "completed"}, NO),
    (
        "record_lesson_outcome",
        {"booking_id": "BK-50111", "outcome": "completed", "note": "Roundabouts; mirror-signal routine improving."},
        OK,
    ),
)

session(
    ask(
        "Aisha Rahman-Colby (LR-2001). I'm so sorry, I missed my 9am with Marta today. Please book me in again Friday 20th at 9, package.",
        "LR-2001 - I didn't turn up to this morning's lesson, sorry. Can I have Friday 20 March at 09:00 instead, on my package?",
    ),
    (
        "record_lesson_outcome",
        {"booking_id": "BK-50110", "outcome": "no_show", "note": "Learner phoned in afterwards to apologise."},
        OK,
    ),
    (
        "book_lesson",
        {
            "learner_id": "LR-2001",
            "instructor_id": "IN-301",
            "car_id": "CR-101",
            "date": "2026-03-20",
            "start": "09:00",
            "duration_min": 60,
            "payment_method": "package",
        },
        OK,
    ),
)

# ---------------------------------------------------------------- packages
session(
    ask(
        "Grace Whitcombe. I'd like a block of 5 manual lessons, paid from my credit.",
        "Hi, Grace Whitcombe - can I buy the five-lesson manual block using my credit balance?",
    ),
    ("search_learners", {"name": "Whitcombe"}, OK),
    ("get_learner", {"learner_id": "LR-2007"}, OK),
    ("purchase_package", {"learner_id": "LR-2007", "price_id": "PR-03", "payment_method": "credit"}, OK),
)

session(
    ask(
        "Aisha (LR-2001). I want to top up with another 10-lesson manual block on my card.",
        "LR-2001 - sell me another ten-lesson manual package please, card.",
    ),
    ("get_learner", {"learner_id": "LR-2001"}, OK),
    ("purchase_package", {"learner_id": "LR-2001", "price_id": "PR-04", "payment_method": "card"}, NO),
)

session(
    ask(
        "Chloe Ardmore. My five-lesson block is used up - I'd like the 10-lesson manual block this time, on card.",
        "Chloe Ardmore here; my block has run out. Can I buy ten manual lessons, paying by card?",
    ),
    ("search_learners", {"name": "Chloe Ardmore"}, OK),
    ("purchase_package", {"learner_id": "LR-2003", "price_id": "PR-04", "payment_method": "card"}, OK),
)

session(
    ask(
        "Ben Tollervey (LR-2002). Five automatic lessons please - take it from my credit, or card if that doesn't work.",
        "LR-2002: I'd like the 5-lesson automatic block. Credit if there's enough, otherwise my card.",
    ),
    ("purchase_package", {"learner_id": "LR-2002", "price_id": "PR-05", "payment_method": "credit"}, NO),
    ("purchase_package", {"learner_id": "LR-2002", "price_id": "PR-05", "payment_method": "card"}, OK),
)

session(
    ask(
        "Katie Drummond. Can I buy the five-lesson automatic package? Card.",
        "Katie Drummond here - I'd like the block of five automatic lessons, paid by card.",
    ),
    ("search_learners", {"name": "Drummond"}, OK),
    ("purchase_package", {"learner_id": "LR-2011", "price_id": "PR-05", "payment_method": "card"}, OK),
)

session(
    ask(
        "Noah Pemberton-Hale (LR-2014). I'll take the 10-lesson automatic block on card, and use one straight away for an hour on Tuesday 24th at 9am.",
        "LR-2014: buy me ten automatic lessons (card) and book the first one, Tuesday 24 March at 09:00.",
    ),
    ("purchase_package", {"learner_id": "LR-2014", "price_id": "PR-06", "payment_method": "card"}, OK),
    ("check_availability", {"date": "2026-03-24", "transmission": "automatic"}, OK),
    (
        "book_lesson",
        {
            "learner_id": "LR-2014",
            "instructor_id": "IN-303",
            "car_id": "CR-103",
            "date": "2026-03-24",
            "start": "09:00",
            "duration_min": 60,
            "payment_method": "package",
        },
        OK,
    ),
)

session(
    ask(
        "Maya Thornbury. How much would ten manual lessons cost compared with paying per hour? If it's cheaper, I'll buy the block on card.",
        "Maya Thornbury - is the 10-lesson manual block cheaper than ten single hours? If so I'll buy it by card.",
    ),
    ("search_learners", {"name": "Maya Thornbury"}, OK),
    ("quote_lesson", {"transmission": "manual", "duration_min": 60, "learner_id": "LR-2013"}, OK),
    ("purchase_package", {"learner_id": "LR-2013", "price_id": "PR-04", "payment_method": "card"}, OK),
)

# ---------------------------------------------------------------- pickup points
session(
    ask(
        "Katie Drummond. I've started a job - please add my work address, Ashvale Library, 1 Chapel Street, Ashvale BR9 2LB, as a pickup point.",
        "Katie Drummond here. New pickup address please: work - Ashvale Library, 1 Chapel Street, Ashvale BR9 2LB.",
    ),
    ("search_learners", {"name": "Katie"}, OK),
    (
        "update_pickup_points",
        {
            "learner_id": "LR-2011",
            "add": [{"label": "work", "address": "Ashvale Library, 1 Chapel Street, Ashvale BR9 2LB"}],
        },
        OK,
    ),
)

session(
    ask(
        "Liam Castellane (LR-2012). Can you add my uni as a pickup point: Brellcombe University, Parkside Campus, BR2 7UP?",
        "LR-2012 - please add 'uni' (Brellcombe University, Parkside Campus, BR2 7UP) to my pickup addresses.",
    ),
    ("get_learner", {"learner_id": "LR-2012"}, OK),
    (
        "update_pickup_points",
        {
            "learner_id": "LR-2012",
            "add": [{"label": "uni", "address": "Brellcombe University, Parkside Campus, BR2 7UP"}],
        },
        NO,
    ),
)

session(
    ask(
        "Aisha Rahman-Colby (LR-2001). I've left college, so take that address off, and add my new job: Larkspur Dental, 3 High Street, Brellcombe BR1 2DS.",
        "LR-2001: remove the college pickup and add work - Larkspur Dental, 3 High Street, Brellcombe BR1 2DS.",
    ),
    ("get_learner", {"learner_id": "LR-2001"}, OK),
    (
        "update_pickup_points",
        {
            "learner_id": "LR-2001",
            "remove": ["college"],
            "add": [{"label": "work", "address": "Larkspur Dental, 3 High Street, Brellcombe BR1 2DS"}],
        },
        NO,
    ),
    (
        "update_pickup_points",
        {
            "learner_id": "LR-2001",
            "add": [{"label": "work", "address": "Larkspur Dental, 3 High Street, Brellcombe BR1 2DS"}],
        },
        OK,
    ),
)

session(
    ask(
        "Ellie Strand. I've left the florist's, so please remove my work pickup address.",
        "Ellie Strand - take my work address off your system please, I don't work at the florist any more.",
    ),
    ("search_learners", {"name": "Strand"}, OK),
    ("update_pickup_points", {"learner_id": "LR-2005", "remove": ["work"]}, OK),
)

session(
    ask(
        "Imogen Petrakis (LR-2009). I've moved: my home pickup is now Flat 2, 9 Kingfisher Quay, Brellcombe BR4 8QQ.",
        "LR-2009 - new home address for pickups: Flat 2, 9 Kingfisher Quay, Brellcombe BR4 8QQ.",
    ),
    ("get_learner", {"learner_id": "LR-2009"}, OK),
    (
        "update_pickup_points",
        {
            "learner_id": "LR-2009",
            "remove": ["home"],
            "add": [{"label": "home", "address": "Flat 2, 9 Kingfisher Quay, Brellcombe BR4 8QQ"}],
        },
        OK,
    ),
)

session(
    ask(
        "Noah Pemberton-Hale (LR-2014). I've changed jobs - my work pickup is now Rookery Vets, 12 Mill Lane, Brellcombe BR2 4VT.",
        "LR-2014: update my work address to Rookery Vets, 12 Mill Lane, Brellcombe BR2 4VT.",
    ),
    (
        "update_pickup_points",
        {
            "learner_id": "LR-2014",
            "add": [{"label": "work", "address": "Rookery Vets, 12 Mill Lane, Brellcombe BR2 4VT"}],
        },
        NO,
    ),
    (
        "update_pickup_points",
        {
            "learner_id": "LR-2014",
            "remove": ["work"],
            "add": [{"label": "work", "address": "Rookery Vets, 12 Mill Lane, Brellcombe BR2 4VT"}],
        },
        OK,
    ),
)

session(
    ask(
        "Maya Thornbury. Please add my mum's house as a pickup: 31 Kiln Lane, Ashvale BR9 5KD.",
        "Maya Thornbury - could you add my mum's place, 31 Kiln Lane, Ashvale BR9 5KD, as somewhere to be picked up from?",
    ),
    ("search_learners", {"name": "Thornbury"}, OK),
    (
        "update_pickup_points",
        {"learner_id": "LR-2013", "add": [{"label": "mum", "address": "31 Kiln Lane, Ashvale BR9 5KD"}]},
        OK,
    ),
)

# ---------------------------------------------------------------- look-ups
session(
    ask(
        "Imogen Petrakis, imogen.petrakis@example.com. How many package lessons have I got left, and what's my credit?",
        "Hi, it's Imogen (imogen.petrakis@example.com) - could you tell me my remaining block lessons and my credit balance?",
    ),
    ("search_learners", {"email": "imogen.petrakis@example.com"}, OK),
    ("get_learner", {"learner_id": "LR-2009"}, OK),
)

session(
    ask("Jamal Fenwick. When's my next lesson?", "It's Jamal Fenwick - what have I got booked coming up?"),
    ("search_learners", {"name": "Fenwick"}, OK),
    ("list_bookings", {"learner_id": "LR-2010", "status": "booked"}, OK),
)

session(
    ask(
        "Is Marta free at all next Monday (23rd)? I'm Liam Castellane, LR-2012, manual. If she's free at 6pm book an hour from my credit.",
        "LR-2012 - does Marta have anything on Monday 23 March? 18:00 for an hour would be perfect, paid from credit.",
    ),
    ("check_availability", {"date": "2026-03-23", "transmission": "manual", "instructor_id": "IN-301"}, OK),
    (
        "book_lesson",
        {
            "learner_id": "LR-2012",
            "instructor_id": "IN-301",
            "car_id": "CR-101",
            "date": "2026-03-23",
            "start": "18:00",
            "duration_min": 60,
            "payment_method": "credit",
        },
        OK,
    ),
)

session(
    ask(
        "Hi, this is Chloe Ardmore, I'm on 07700 900358. Can you tell me my lesson history this month, and whether I have a test booked?",
        "Chloe Ardmore (07700 900358). What lessons have I done since 1 March and when's my test?",
    ),
    ("search_learners", {"phone": "07700 900358"}, OK),
    ("list_bookings", {"learner_id": "LR-2003", "date_from": "2026-03-01"}, OK),
    ("get_learner", {"learner_id": "LR-2003"}, OK),
)

session(
    ask(
        "Daniel Okafor-Reid. My provisional ran out - I've applied for a new one. Is my credit still there, and do I have anything booked?",
        "Daniel Okafor-Reid here: my licence has lapsed while I renew it. Can you check my credit and any bookings?",
    ),
    ("search_learners", {"name": "Okafor-Reid"}, OK),
    ("get_learner", {"learner_id": "LR-2004"}, OK),
    ("list_bookings", {"learner_id": "LR-2004"}, OK),
)

session(
    ask(
        "Who's teaching automatic on Saturday 21st and when is Priya free? I'm Farid Nasseri, LR-2006 - book me 11am for an hour with her if possible, card.",
        "LR-2006, Farid: any automatic slots with Priya on Saturday 21 March? 11:00 for an hour would suit me; card.",
    ),
    ("check_availability", {"date": "2026-03-21", "transmission": "automatic", "instructor_id": "IN-303"}, OK),
    (
        "book_lesson",
        {
            "learner_id": "LR-2006",
            "instructor_id": "IN-303",
            "car_id": "CR-103",
            "date": "2026-03-21",
            "start": "11:00",
            "duration_min": 60,
            "payment_method": "card",
        },
        OK,
    ),
)


def build():
    rng = random.Random(SEED)
    order = list(range(len(SESSIONS)))
    rng.shuffle(order)
    with open(os.path.join(HERE, "data.json"), encoding="utf-8") as fh:
        data = json.load(fh)
    rows = []
    total = refused = 0
    for n, idx in enumerate(order):
        variants, calls = SESSIONS[idx]
        instruction = rng.choice(variants)
        system = adapter.make()
        system.reset(data)
        out_calls = []
        for name, args, expect in calls:
            result = system.call(name, args)
            if result["ok"] != expect:
                raise SystemExit(f"session {idx} ({instruction[:40]}...): {name} {args} -> {result}")
            total += 1
            refused += 0 if result["ok"] else 1
            out_calls.append({"name": name, "arguments": args})
        rows.append({"id": "drivingschool-%03d" % n, "instruction": instruction, "calls": out_calls})
    with open(os.path.join(HERE, "trajectories.jsonl"), "w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    return rows, total, refused


if __name__ == "__main__":
    rows, total, refused = build()
    used = sorted({c["name"] for r in rows for c in r["calls"]})
    n, calls, errors, _ = adapter.replay()
    assert (n, calls, errors) == (len(rows), total, refused)
    print(f"sessions: {len(rows)}  calls: {total}  refused: {refused}  refused share: {refused / total:.3f}")
    print(f"tools used: {len(used)} of {len(adapter.OPERATIONS)}")
