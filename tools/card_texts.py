"""Write every edition's name, card texts, deck and group names into each of the seven languages.

The cards of every edition are the same family (advance to GO, bank error, street repairs…);
only the squares, amounts and currency differ. Each language here has one faithful wording per
card, filled with the edition's own square names (as printed on its board, or as the edition's
version in that language names them) and its amounts written exactly as its own cards write
them. The result goes into the edition's "localized" block, so the words stay data; a language
the edition already prints (its own, or a block with "cards") is left as it is.
`python tools/card_texts.py` rewrites the files, `--check` says whether they are up to date.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

EDITIONS = Path(__file__).resolve().parent.parent / "companion" / "data" / "editions"
LANGUAGES = ("en", "sv", "fr", "de", "nl", "pl", "ru")

# The card a card id plays, when its id names the edition's square rather than the role.
ROLE = {
    "chance-henri-martin": "chance-advance-red",
    "chance-villette": "chance-advance-pink",
    "chance-montparnasse": "chance-advance-first-station",
    "chance-rue-de-la-paix": "chance-advance-last-lot",
    "chance-station-2": "chance-station-1",
    "chest-go": "chance-go",
    "chest-jail-free": "chance-jail-free",
    "chest-jail": "chance-jail",
    "chest-bus-ticket": "chance-bus-ticket",
}

# {go}: the start square in the language; {sq}: a square's name; {salary}, {amount}, {house},
# {hotel}, {skyscraper}: amounts as the edition writes them; {mult}: the dice multiplier.
TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "go": "GO",
        "chance-go": "Advance to {go}. Collect {salary}.",
        "chance-advance-red": "Advance to {sq}. If you pass {go}, collect {salary}.",
        "chance-advance-pink": "Advance to {sq}. If you pass {go}, collect {salary}.",
        "chance-advance-first-station": "Take a trip to {sq}. If you pass {go}, collect {salary}.",
        "chance-advance-last-lot": "Go to {sq}.",
        "chance-utility": "Advance to the nearest utility. If nobody owns it, you may buy it from "
                          "the bank. If it has an owner, throw the dice and pay the owner {mult} "
                          "times the total thrown.",
        "chance-station-1": "Advance to the nearest station. If it has an owner, pay them twice "
                            "the rent they would otherwise ask. If nobody owns it, you may buy it "
                            "from the bank.",
        "chance-dividend": "The bank pays you a dividend of {amount}.",
        "chance-jail-free": "Get out of jail free. Keep this card until you use it, or sell it.",
        "chance-back-3": "Go back three squares.",
        "chance-jail": "Go to jail. Move directly to jail; do not pass {go}, do not collect "
                       "{salary}.",
        "chance-repairs": "Repairs on all your property: pay {house} for each house and {hotel} "
                          "for each hotel.",
        "chance-repairs-skyscraper": "Repairs on all your property: pay {house} for each house, "
                                     "{hotel} for each hotel and {skyscraper} for each "
                                     "skyscraper.",
        "chance-speeding": "Fine for speeding: pay {amount}.",
        "chance-chairman": "You are elected chair of the board. Pay each player {amount}.",
        "chance-building-loan": "Your building loan pays off. Collect {amount}.",
        "chance-bus-ticket": "Take a bus ticket.",
        "chest-bank-error": "The bank made a mistake in your favour. Collect {amount}.",
        "chest-doctor": "Pay the doctor's bill: {amount}.",
        "chest-stock": "You sell some shares and receive {amount}.",
        "chest-holiday": "Your yearly income is paid out: collect {amount}.",
        "chest-tax-refund": "Tax refund: collect {amount}.",
        "chest-birthday": "It is your birthday: every player gives you {amount}.",
        "chest-life-insurance": "Your life insurance pays out: collect {amount}.",
        "chest-hospital": "Pay the hospital bill: {amount}.",
        "chest-school": "Pay the school fees: {amount}.",
        "chest-consultancy": "Collect a consultancy fee of {amount}.",
        "chest-street-repairs": "You are charged for street works: {house} per house and {hotel} "
                                "per hotel.",
        "chest-beauty": "Second prize in a beauty contest: collect {amount}.",
        "chest-inheritance": "You inherit {amount}.",
        "bus-ticket": "Bus ticket: move forward to any square you choose on the side of the "
                      "board you are on. Give this ticket back to the bank once used.",
        "bus-ticket-expire": "Bus ticket: all other bus tickets expire, but not this one. Move "
                             "forward to any square you choose on the side of the board you "
                             "are on.",
    },
    "sv": {
        "go": "GÅ",
        "chance-go": "Flytta fram till {go}. Du får {salary} av banken.",
        "chance-advance-red": "Flytta fram till {sq}. Passerar du {go} får du {salary}.",
        "chance-advance-pink": "Flytta fram till {sq}. Passerar du {go} får du {salary}.",
        "chance-advance-first-station": "Res till {sq}. Passerar du {go} får du {salary}.",
        "chance-advance-last-lot": "Gå till {sq}.",
        "chance-utility": "Flytta fram till närmaste verk. Är det herrelöst får du köpa det av "
                          "banken. Har det en ägare, slå tärningarna och betala ägaren {mult} "
                          "gånger ögonsumman.",
        "chance-station-1": "Flytta fram till närmaste station. Har den en ägare, betala dubbla "
                            "hyran. Är den herrelös får du köpa den av banken.",
        "chance-dividend": "Banken betalar dig en utdelning på {amount}.",
        "chance-jail-free": "Fri från fängelset. Behåll kortet tills du använder det, eller sälj "
                            "det.",
        "chance-back-3": "Gå tillbaka tre steg.",
        "chance-jail": "Gå i fängelse. Gå direkt till fängelset; du passerar inte {go} och får "
                       "inte {salary}.",
        "chance-repairs": "Reparationer på alla dina fastigheter: betala {house} för varje hus "
                          "och {hotel} för varje hotell.",
        "chance-repairs-skyscraper": "Reparationer på alla dina fastigheter: betala {house} för "
                                     "varje hus, {hotel} för varje hotell och {skyscraper} för "
                                     "varje skyskrapa.",
        "chance-speeding": "Böter för fortkörning: betala {amount}.",
        "chance-chairman": "Du har valts till styrelseordförande. Betala {amount} till varje "
                           "spelare.",
        "chance-building-loan": "Ditt byggnadslån ger avkastning. Du får {amount}.",
        "chance-bus-ticket": "Ta en bussbiljett.",
        "chest-bank-error": "Fel i banken till din fördel. Du får {amount}.",
        "chest-doctor": "Betala läkararvodet: {amount}.",
        "chest-stock": "Du säljer aktier och får {amount}.",
        "chest-holiday": "Din årsinkomst betalas ut: du får {amount}.",
        "chest-tax-refund": "Skatteåterbäring: du får {amount}.",
        "chest-birthday": "Det är din födelsedag: varje spelare ger dig {amount}.",
        "chest-life-insurance": "Din livförsäkring betalas ut: du får {amount}.",
        "chest-hospital": "Betala sjukhusräkningen: {amount}.",
        "chest-school": "Betala skolavgiften: {amount}.",
        "chest-consultancy": "Du får ett konsultarvode på {amount}.",
        "chest-street-repairs": "Du debiteras för gatuarbeten: {house} per hus och {hotel} per "
                                "hotell.",
        "chest-beauty": "Andra pris i en skönhetstävling: du får {amount}.",
        "chest-inheritance": "Du ärver {amount}.",
        "bus-ticket": "Bussbiljett: flytta fram till valfri ruta på den sida av brädet där du "
                      "står. Lämna tillbaka biljetten till banken när du har använt den.",
        "bus-ticket-expire": "Bussbiljett: alla andra bussbiljetter blir ogiltiga, men inte den "
                             "här. Flytta fram till valfri ruta på den sida av brädet där du "
                             "står.",
    },
    "fr": {
        "go": "Départ",
        "chance-go": "Avancez jusqu'à la case {go}. Recevez {salary}.",
        "chance-advance-red": "Rendez-vous à {sq}. Si vous passez par la case {go}, recevez "
                              "{salary}.",
        "chance-advance-pink": "Avancez jusqu'à {sq}. Si vous passez par la case {go}, recevez "
                               "{salary}.",
        "chance-advance-first-station": "Allez à {sq}. Si vous passez par la case {go}, recevez "
                                        "{salary}.",
        "chance-advance-last-lot": "Rendez-vous à {sq}.",
        "chance-utility": "Avancez jusqu'à la compagnie de service public la plus proche. Si "
                          "elle n'appartient à personne, vous pouvez l'acheter. Si elle "
                          "appartient à un joueur, lancez les dés et payez-lui {mult} fois le "
                          "montant obtenu.",
        "chance-station-1": "Avancez jusqu'à la gare la plus proche. Si elle appartient à un "
                            "joueur, payez-lui le double du loyer. Si elle n'appartient à "
                            "personne, vous pouvez l'acheter.",
        "chance-dividend": "La banque vous verse un dividende de {amount}.",
        "chance-jail-free": "Vous êtes libéré de prison. Cette carte peut être conservée jusqu'à "
                            "ce qu'elle soit utilisée ou vendue.",
        "chance-back-3": "Reculez de trois cases.",
        "chance-jail": "Allez en prison. Rendez-vous directement en prison. Ne franchissez pas la "
                       "case {go}, ne touchez pas {salary}.",
        "chance-repairs": "Faites des réparations dans toutes vos maisons : versez {house} pour "
                          "chaque maison et {hotel} pour chaque hôtel.",
        "chance-repairs-skyscraper": "Faites des réparations dans toutes vos maisons : versez "
                                     "{house} pour chaque maison, {hotel} pour chaque hôtel et "
                                     "{skyscraper} pour chaque gratte-ciel.",
        "chance-speeding": "Amende pour excès de vitesse : {amount}.",
        "chance-chairman": "Vous avez été élu président du conseil d'administration. Versez "
                           "{amount} à chaque joueur.",
        "chance-building-loan": "Votre immeuble et votre prêt rapportent. Recevez {amount}.",
        "chance-bus-ticket": "Prenez un ticket de bus.",
        "chest-bank-error": "Erreur de la banque en votre faveur. Recevez {amount}.",
        "chest-doctor": "Payez la note du médecin : {amount}.",
        "chest-stock": "La vente de votre stock vous rapporte {amount}.",
        "chest-holiday": "Recevez votre revenu annuel : {amount}.",
        "chest-tax-refund": "Les contributions vous remboursent la somme de {amount}.",
        "chest-birthday": "C'est votre anniversaire : chaque joueur doit vous donner {amount}.",
        "chest-life-insurance": "Votre assurance-vie vous rapporte {amount}.",
        "chest-hospital": "Payez l'hôpital : {amount}.",
        "chest-school": "Payez les frais de scolarité : {amount}.",
        "chest-consultancy": "Recevez vos honoraires de conseil : {amount}.",
        "chest-street-repairs": "Vous êtes imposé pour les réparations de voirie : {house} par "
                                "maison et {hotel} par hôtel.",
        "chest-beauty": "Vous avez gagné le deuxième prix de beauté : recevez {amount}.",
        "chest-inheritance": "Vous héritez : recevez {amount}.",
        "bus-ticket": "Ticket de bus : avancez jusqu'à la case de votre choix sur le côté du "
                      "plateau où vous êtes. Rendez ce ticket à la banque après usage.",
        "bus-ticket-expire": "Ticket de bus : tous les tickets de bus sont périmés, sauf "
                             "celui-ci. Avancez jusqu'à la case de votre choix sur le côté du "
                             "plateau où vous êtes.",
    },
    "de": {
        "go": "Los",
        "chance-go": "Rücke vor bis auf {go}. Ziehe {salary} ein.",
        "chance-advance-red": "Rücke vor bis {sq}. Wenn du über {go} kommst, ziehe {salary} "
                              "ein.",
        "chance-advance-pink": "Rücke vor bis {sq}. Wenn du über {go} kommst, ziehe {salary} "
                               "ein.",
        "chance-advance-first-station": "Mache einen Ausflug nach {sq}. Wenn du über {go} "
                                        "kommst, ziehe {salary} ein.",
        "chance-advance-last-lot": "Gehe zu {sq}.",
        "chance-utility": "Rücke vor bis zum nächsten Versorgungswerk. Gehört es niemandem, "
                          "kannst du es von der Bank kaufen. Hat es einen Besitzer, würfle und "
                          "zahle ihm das {mult}-fache der geworfenen Augenzahl.",
        "chance-station-1": "Rücke vor bis zum nächsten Bahnhof. Hat er einen Besitzer, zahle "
                            "ihm die doppelte Miete. Gehört er niemandem, kannst du ihn von der "
                            "Bank kaufen.",
        "chance-dividend": "Die Bank zahlt dir eine Dividende von {amount}.",
        "chance-jail-free": "Du kommst aus dem Gefängnis frei. Behalte diese Karte, bis du sie "
                            "benötigst, oder verkaufe sie.",
        "chance-back-3": "Gehe drei Felder zurück.",
        "chance-jail": "Gehe in das Gefängnis. Begib dich direkt dorthin; gehe nicht über {go}, "
                       "ziehe nicht {salary} ein.",
        "chance-repairs": "Renovierung all deiner Gebäude: zahle {house} für jedes Haus und "
                          "{hotel} für jedes Hotel.",
        "chance-repairs-skyscraper": "Renovierung all deiner Gebäude: zahle {house} für jedes "
                                     "Haus, {hotel} für jedes Hotel und {skyscraper} für jeden "
                                     "Wolkenkratzer.",
        "chance-speeding": "Strafe für zu schnelles Fahren: zahle {amount}.",
        "chance-chairman": "Du wirst zum Vorsitzenden des Vorstands gewählt. Zahle jedem "
                           "Spieler {amount}.",
        "chance-building-loan": "Dein Bausparvertrag wird fällig. Ziehe {amount} ein.",
        "chance-bus-ticket": "Nimm eine Busfahrkarte.",
        "chest-bank-error": "Bankirrtum zu deinen Gunsten. Ziehe {amount} ein.",
        "chest-doctor": "Arztkosten: zahle {amount}.",
        "chest-stock": "Du verkaufst Aktien und erhältst {amount}.",
        "chest-holiday": "Dein Jahreseinkommen wird ausgezahlt: ziehe {amount} ein.",
        "chest-tax-refund": "Steuerrückzahlung: ziehe {amount} ein.",
        "chest-birthday": "Du hast Geburtstag: jeder Spieler schenkt dir {amount}.",
        "chest-life-insurance": "Deine Lebensversicherung wird fällig: ziehe {amount} ein.",
        "chest-hospital": "Zahle die Krankenhausrechnung: {amount}.",
        "chest-school": "Zahle das Schulgeld: {amount}.",
        "chest-consultancy": "Du erhältst ein Beraterhonorar von {amount}.",
        "chest-street-repairs": "Du wirst zu Straßenausbesserungsarbeiten herangezogen: "
                                "{house} je Haus und {hotel} je Hotel.",
        "chest-beauty": "Zweiter Preis im Schönheitswettbewerb: ziehe {amount} ein.",
        "chest-inheritance": "Du erbst {amount}.",
        "bus-ticket": "Busfahrkarte: rücke auf ein beliebiges Feld der Brettseite vor, auf der "
                      "du stehst. Gib die Fahrkarte nach Gebrauch der Bank zurück.",
        "bus-ticket-expire": "Busfahrkarte: alle anderen Busfahrkarten verfallen, diese nicht. "
                             "Rücke auf ein beliebiges Feld der Brettseite vor, auf der du "
                             "stehst.",
    },
    "nl": {
        "go": "START",
        "chance-go": "Ga naar {go}. Ontvang {salary}.",
        "chance-advance-red": "Ga verder naar {sq}. Als u langs {go} komt, ontvangt u {salary}.",
        "chance-advance-pink": "Ga verder naar {sq}. Als u langs {go} komt, ontvangt u "
                               "{salary}.",
        "chance-advance-first-station": "Reis naar {sq}. Als u langs {go} komt, ontvangt u "
                                        "{salary}.",
        "chance-advance-last-lot": "Ga verder naar {sq}.",
        "chance-utility": "Ga naar het dichtstbijzijnde nutsbedrijf. Is het niet verkocht, dan "
                          "mag u het van de bank kopen. Is het van een andere speler, gooi dan "
                          "de dobbelstenen en betaal de eigenaar {mult} keer het gegooide aantal "
                          "ogen.",
        "chance-station-1": "Ga naar het dichtstbijzijnde station. Is het van een andere speler, "
                            "betaal dan tweemaal de huur. Is het niet verkocht, dan mag u het van "
                            "de bank kopen.",
        "chance-dividend": "De bank betaalt u een dividend van {amount}.",
        "chance-jail-free": "Verlaat de gevangenis zonder betalen. Bewaar deze kaart tot u hem "
                            "gebruikt, of verkoop hem.",
        "chance-back-3": "Ga drie plaatsen terug.",
        "chance-jail": "Ga direct naar de gevangenis. Ga niet langs {go}, u ontvangt geen "
                       "{salary}.",
        "chance-repairs": "Onderhoud aan al uw bezittingen: betaal {house} per huis en {hotel} "
                          "per hotel.",
        "chance-repairs-skyscraper": "Onderhoud aan al uw bezittingen: betaal {house} per huis, "
                                     "{hotel} per hotel en {skyscraper} per wolkenkrabber.",
        "chance-speeding": "Boete voor te snel rijden: betaal {amount}.",
        "chance-chairman": "U bent gekozen tot voorzitter van de raad van bestuur. Betaal "
                           "iedere speler {amount}.",
        "chance-building-loan": "Uw bouwlening vervalt. Ontvang {amount}.",
        "chance-bus-ticket": "Neem een buskaartje.",
        "chest-bank-error": "Vergissing van de bank in uw voordeel. Ontvang {amount}.",
        "chest-doctor": "Betaal de rekening van de dokter: {amount}.",
        "chest-stock": "U verkoopt aandelen en ontvangt {amount}.",
        "chest-holiday": "Uw jaarinkomen wordt uitbetaald: ontvang {amount}.",
        "chest-tax-refund": "Teruggave van de belasting: ontvang {amount}.",
        "chest-birthday": "U bent jarig: iedere speler geeft u {amount}.",
        "chest-life-insurance": "Uw levensverzekering keert uit: ontvang {amount}.",
        "chest-hospital": "Betaal de rekening van het ziekenhuis: {amount}.",
        "chest-school": "Betaal het schoolgeld: {amount}.",
        "chest-consultancy": "Ontvang {amount} adviesvergoeding.",
        "chest-street-repairs": "U wordt aangeslagen voor straatwerk: {house} per huis en "
                                "{hotel} per hotel.",
        "chest-beauty": "Tweede prijs in een schoonheidswedstrijd: ontvang {amount}.",
        "chest-inheritance": "U erft {amount}.",
        "bus-ticket": "Buskaartje: ga naar een vakje naar keuze op de kant van het bord waar u "
                      "staat. Geef dit kaartje na gebruik terug aan de bank.",
        "bus-ticket-expire": "Buskaartje: alle andere buskaartjes vervallen, behalve dit. Ga "
                             "naar een vakje naar keuze op de kant van het bord waar u staat.",
    },
    "pl": {
        "go": "Start",
        "chance-go": "Przejdź na pole {go}. Pobierz {salary}.",
        "chance-advance-red": "Przejdź na pole {sq}. Jeśli przejdziesz przez pole {go}, pobierz "
                              "{salary}.",
        "chance-advance-pink": "Przejdź na pole {sq}. Jeśli przejdziesz przez pole {go}, "
                               "pobierz {salary}.",
        "chance-advance-first-station": "Wybierz się w podróż na pole {sq}. Jeśli przejdziesz "
                                        "przez pole {go}, pobierz {salary}.",
        "chance-advance-last-lot": "Przejdź na pole {sq}.",
        "chance-utility": "Przejdź do najbliższego przedsiębiorstwa użyteczności publicznej. "
                          "Jeśli nie ma właściciela, możesz je kupić od banku. Jeśli ma, rzuć "
                          "kośćmi i zapłać właścicielowi {mult}-krotność wyrzuconych oczek.",
        "chance-station-1": "Przejdź na najbliższy dworzec. Jeśli ma właściciela, zapłać mu "
                            "podwójny czynsz. Jeśli nie, możesz go kupić od banku.",
        "chance-dividend": "Bank wypłaca ci dywidendę: {amount}.",
        "chance-jail-free": "Wychodzisz wolny z więzienia. Zachowaj tę kartę, dopóki jej nie "
                            "użyjesz, albo ją sprzedaj.",
        "chance-back-3": "Cofnij się o trzy pola.",
        "chance-jail": "Idź do więzienia. Idź prosto do więzienia, nie przechodź przez pole "
                       "{go}, nie pobieraj {salary}.",
        "chance-repairs": "Remont wszystkich twoich budynków: zapłać {house} za każdy dom i "
                          "{hotel} za każdy hotel.",
        "chance-repairs-skyscraper": "Remont wszystkich twoich budynków: zapłać {house} za każdy "
                                     "dom, {hotel} za każdy hotel i {skyscraper} za każdy "
                                     "drapacz chmur.",
        "chance-speeding": "Mandat za przekroczenie prędkości: zapłać {amount}.",
        "chance-chairman": "Zostajesz prezesem zarządu. Zapłać każdemu graczowi {amount}.",
        "chance-building-loan": "Twój kredyt budowlany przynosi zysk. Pobierz {amount}.",
        "chance-bus-ticket": "Weź bilet autobusowy.",
        "chest-bank-error": "Błąd banku na twoją korzyść. Pobierz {amount}.",
        "chest-doctor": "Zapłać za wizytę u lekarza: {amount}.",
        "chest-stock": "Sprzedajesz akcje i otrzymujesz {amount}.",
        "chest-holiday": "Otrzymujesz roczny dochód: {amount}.",
        "chest-tax-refund": "Zwrot podatku: pobierz {amount}.",
        "chest-birthday": "Masz urodziny: każdy gracz daje ci {amount}.",
        "chest-life-insurance": "Wypłata z ubezpieczenia na życie: pobierz {amount}.",
        "chest-hospital": "Zapłać rachunek za szpital: {amount}.",
        "chest-school": "Zapłać czesne: {amount}.",
        "chest-consultancy": "Otrzymujesz honorarium za doradztwo: {amount}.",
        "chest-street-repairs": "Płacisz za remont ulic: {house} za każdy dom i {hotel} za każdy "
                                "hotel.",
        "chest-beauty": "Druga nagroda w konkursie piękności: pobierz {amount}.",
        "chest-inheritance": "Dziedziczysz {amount}.",
        "bus-ticket": "Bilet autobusowy: przejdź na wybrane pole po tej stronie planszy, na "
                      "której stoisz. Po użyciu oddaj bilet do banku.",
        "bus-ticket-expire": "Bilet autobusowy: wszystkie inne bilety autobusowe tracą ważność, "
                             "ale nie ten. Przejdź na wybrane pole po tej stronie planszy, na "
                             "której stoisz.",
    },
    "ru": {
        "go": "«Вперёд»",
        "chance-go": "Перейдите на ячейку {go}. Получите {salary}.",
        "chance-advance-red": "Перейдите на ячейку «{sq}». Если проходите ячейку {go}, получите "
                              "{salary}.",
        "chance-advance-pink": "Перейдите на ячейку «{sq}». Если проходите ячейку {go}, "
                               "получите {salary}.",
        "chance-advance-first-station": "Поездка: перейдите на ячейку «{sq}». Если проходите "
                                        "ячейку {go}, получите {salary}.",
        "chance-advance-last-lot": "Перейдите на ячейку «{sq}».",
        "chance-utility": "Перейдите на ближайшее коммунальное предприятие. Если у него нет "
                          "владельца, можете купить его у банка. Если владелец есть, бросьте "
                          "кубики и заплатите ему сумму очков, умноженную на {mult}.",
        "chance-station-1": "Перейдите на ближайший вокзал. Если у него есть владелец, "
                            "заплатите ему двойную арендную плату. Если нет, можете купить его у "
                            "банка.",
        "chance-dividend": "Банк выплачивает вам дивиденды: {amount}.",
        "chance-jail-free": "Бесплатный выход из тюрьмы. Карточку можно оставить до нужного "
                            "момента или продать.",
        "chance-back-3": "Вернитесь на три ячейки назад.",
        "chance-jail": "Отправляйтесь в тюрьму. Не проходите ячейку {go} и не получайте "
                       "{salary}.",
        "chance-repairs": "Ремонт всей вашей недвижимости: заплатите {house} за каждый дом и "
                          "{hotel} за каждый отель.",
        "chance-repairs-skyscraper": "Ремонт всей вашей недвижимости: заплатите {house} за "
                                     "каждый дом, {hotel} за каждый отель и {skyscraper} за "
                                     "каждый небоскрёб.",
        "chance-speeding": "Штраф за превышение скорости: заплатите {amount}.",
        "chance-chairman": "Вас избрали председателем совета директоров. Заплатите каждому "
                           "игроку {amount}.",
        "chance-building-loan": "Ваш строительный кредит принёс доход. Получите {amount}.",
        "chance-bus-ticket": "Возьмите автобусный билет.",
        "chest-bank-error": "Ошибка банка в вашу пользу. Получите {amount}.",
        "chest-doctor": "Оплатите визит к врачу: {amount}.",
        "chest-stock": "Вы продали акции и получаете {amount}.",
        "chest-holiday": "Вам выплачен годовой доход: {amount}.",
        "chest-tax-refund": "Возврат налога: получите {amount}.",
        "chest-birthday": "У вас день рождения: каждый игрок дарит вам {amount}.",
        "chest-life-insurance": "Выплата по страхованию жизни: получите {amount}.",
        "chest-hospital": "Оплатите счёт из больницы: {amount}.",
        "chest-school": "Оплатите обучение: {amount}.",
        "chest-consultancy": "Гонорар за консультацию: получите {amount}.",
        "chest-street-repairs": "С вас взимают за ремонт улиц: {house} за каждый дом и {hotel} "
                                "за каждый отель.",
        "chest-beauty": "Второе место на конкурсе красоты: получите {amount}.",
        "chest-inheritance": "Вы получили наследство: {amount}.",
        "bus-ticket": "Автобусный билет: перейдите на любую ячейку той стороны поля, на которой "
                      "вы стоите. После использования верните билет в банк.",
        "bus-ticket-expire": "Автобусный билет: все остальные автобусные билеты недействительны, "
                             "кроме этого. Перейдите на любую ячейку той стороны поля, на "
                             "которой вы стоите.",
    },
}

DECKS: dict[str, dict[str, str]] = {
    "chance": {"en": "Chance", "sv": "Chans", "fr": "Chance", "de": "Ereignisfeld",
               "nl": "Kans", "pl": "Szansa", "ru": "Шанс"},
    "community_chest": {"en": "Community Chest", "sv": "Allmänning",
                        "fr": "Caisse de communauté", "de": "Gemeinschaftsfeld",
                        "nl": "Algemeen Fonds", "pl": "Kasa społeczna",
                        "ru": "Общественная казна"},
    "bus_tickets": {"en": "Bus tickets", "sv": "Bussbiljetter", "fr": "Tickets de bus",
                    "de": "Busfahrkarten", "nl": "Buskaartjes", "pl": "Bilety autobusowe",
                    "ru": "Автобусные билеты"},
}
# The Swiss board's second deck is the Chancellery, not a community chest.
SWISS_CHEST = {"en": "Chancellery", "sv": "Kansliet", "fr": "Chancellerie", "de": "Kanzlei",
               "nl": "Kanselarij", "pl": "Kancelaria", "ru": "Канцелярия"}

# As the language's own boards name the groups (the French and Swiss boards' pink is "Violet").
GROUPS: dict[str, dict[str, str]] = {
    "brown": {"en": "Brown", "sv": "Brun", "fr": "Marron", "de": "Braun", "nl": "Bruin",
              "pl": "Brązowa", "ru": "Коричневая"},
    "light_blue": {"en": "Light blue", "sv": "Ljusblå", "fr": "Bleu ciel", "de": "Hellblau",
                   "nl": "Lichtblauw", "pl": "Jasnoniebieska", "ru": "Голубая"},
    "pink": {"en": "Pink", "sv": "Rosa", "fr": "Violet", "de": "Violett", "nl": "Roze",
             "pl": "Różowa", "ru": "Розовая"},
    "orange": {"en": "Orange", "sv": "Orange", "fr": "Orange", "de": "Orange", "nl": "Oranje",
               "pl": "Pomarańczowa", "ru": "Оранжевая"},
    "red": {"en": "Red", "sv": "Röd", "fr": "Rouge", "de": "Rot", "nl": "Rood",
            "pl": "Czerwona", "ru": "Красная"},
    "yellow": {"en": "Yellow", "sv": "Gul", "fr": "Jaune", "de": "Gelb", "nl": "Geel",
               "pl": "Żółta", "ru": "Жёлтая"},
    "green": {"en": "Green", "sv": "Grön", "fr": "Vert", "de": "Grün", "nl": "Groen",
              "pl": "Zielona", "ru": "Зелёная"},
    "dark_blue": {"en": "Dark blue", "sv": "Mörkblå", "fr": "Bleu foncé", "de": "Dunkelblau",
                  "nl": "Donkerblauw", "pl": "Granatowa", "ru": "Синяя"},
}


# The edition's own name in each language it does not print (its own version's stays).
NAMES: dict[str, dict[str, str]] = {
    "ch": {"en": "Monopoly — Swiss edition", "sv": "Monopol — schweizisk utgåva",
           "nl": "Monopoly — Zwitserse editie", "pl": "Monopoly — wydanie szwajcarskie",
           "ru": "Монополия — швейцарское издание"},
    "classic-en": {"sv": "Monopol — klassisk utgåva (euro, engelska namn)",
                   "fr": "Monopoly — édition classique (euro, noms anglais)",
                   "de": "Monopoly — klassische Ausgabe (Euro, englische Namen)",
                   "nl": "Monopoly — klassieke editie (euro, Engelse namen)",
                   "pl": "Monopoly — wydanie klasyczne (euro, angielskie nazwy)",
                   "ru": "Монополия — классическое издание (евро, английские названия)"},
    "classic-eur": {"en": "Monopoly — classic edition (euro)",
                    "sv": "Monopol — klassisk utgåva (euro)",
                    "de": "Monopoly — klassische Ausgabe (Euro)",
                    "pl": "Monopoly — wydanie klasyczne (euro)",
                    "ru": "Монополия — классическое издание (евро)"},
    "mega": {"en": "Monopoly — Mega edition", "sv": "Monopol — Mega-utgåva",
             "de": "Monopoly — Mega-Ausgabe", "pl": "Monopoly — wydanie Mega",
             "ru": "Монополия — издание «Мега»"},
    "pl": {"en": "Monopoly — Polish edition (Warsaw)", "sv": "Monopol — polsk utgåva (Warszawa)",
           "fr": "Monopoly — édition polonaise (Varsovie)",
           "de": "Monopoly — polnische Ausgabe (Warschau)",
           "nl": "Monopoly — Poolse editie (Warschau)",
           "ru": "Монополия — польское издание (Варшава)"},
    "ru-monopolist": {"en": "Monopolist (Russian edition)", "sv": "Monopolist (rysk utgåva)",
                      "fr": "Monopolist (édition russe)", "de": "Monopolist (russische Ausgabe)",
                      "nl": "Monopolist (Russische editie)",
                      "pl": "Monopolist (wydanie rosyjskie)"},
    "sv": {"en": "Monopoly — Swedish edition (Stockholm)",
           "fr": "Monopoly — édition suédoise (Stockholm)",
           "de": "Monopoly — schwedische Ausgabe (Stockholm)",
           "nl": "Monopoly — Zweedse editie (Stockholm)",
           "pl": "Monopoly — wydanie szwedzkie (Sztokholm)",
           "ru": "Монополия — шведское издание (Стокгольм)"},
}


def money(amount: int, currency: Mapping[str, Any]) -> str:
    """An amount as the edition's own cards write it (its pattern, plain separators)."""
    digits = str(abs(int(amount)))
    minimum = int(currency.get("minimum_grouping_digits", 1) or 1)
    if len(digits) >= 3 + minimum:
        digits = f"{int(digits):,}".replace(",", str(currency.get("group_separator", " ")))
    return str(currency["pattern"]).replace("{amount}", digits)


def role(card: Mapping[str, Any]) -> str:
    """The wording a card takes: its id, or the role its edition-specific id plays."""
    card_id = str(card["id"])
    if card_id.startswith("bus-ticket-"):
        return "bus-ticket-expire" if card.get("expire_others") else "bus-ticket"
    if card.get("effect") == "repairs" and card.get("skyscraper"):
        return "chance-repairs-skyscraper"
    return ROLE.get(card_id, card_id)


def card_text(data: Mapping[str, Any], card: Mapping[str, Any], lang: str,
              square_names: Mapping[str, str]) -> str:
    """One card of the edition, worded in `lang`."""
    cur = data["currency"]
    words = TEXTS[lang]
    target = str(card.get("to", ""))
    fields = {
        "go": words["go"],
        "sq": square_names.get(target, target),
        "salary": money(int(data["salary"]), cur),
        "amount": money(int(card.get("amount", 0)), cur),
        "house": money(int(card.get("house", 0)), cur),
        "hotel": money(int(card.get("hotel", 0)), cur),
        "skyscraper": money(int(card.get("skyscraper", 0)), cur),
        "mult": str(card.get("dice_multiplier", "")),
    }
    return words[role(card)].format(**fields)


def localized(data: dict[str, Any]) -> dict[str, Any]:
    """The edition's "localized" block with every language it lacks worded."""
    blocks: dict[str, Any] = dict(data.get("localized") or {})
    for lang in LANGUAGES:
        if lang == data.get("language"):
            continue
        block = dict(blocks.get(lang) or {})
        if not block.get("name"):
            block = {"name": NAMES[data["id"]][lang], **block}
        names = {str(sq["id"]): str(sq["name"]) for sq in data["squares"]}
        names.update(block.get("squares") or {})
        if not block.get("cards"):
            block["cards"] = {str(c["id"]): card_text(data, c, lang, names)
                              for deck in data["decks"].values() for c in deck["cards"]}
        if not block.get("decks"):
            block["decks"] = {
                deck: (SWISS_CHEST[lang] if data["id"] == "ch" and deck == "community_chest"
                       else DECKS[deck][lang]) for deck in data["decks"]}
        if not block.get("groups"):
            block["groups"] = {g: GROUPS[g][lang] for g in data["groups"] if g in GROUPS}
        blocks[lang] = block
    return blocks


def check_amounts(data: Mapping[str, Any]) -> None:
    """Stop if the edition's own cards write an amount other than `money` would."""
    for deck in data["decks"].values():
        for card in deck["cards"]:
            for key in ("amount", "house", "hotel", "skyscraper"):
                if key in card and money(int(card[key]), data["currency"]) not in card["text"]:
                    sys.exit(f"{data['id']}: {card['id']} does not write {key} as "
                             f"{money(int(card[key]), data['currency'])!r}")


def main(argv: list[str] | None = None) -> int:
    """Rewrite (or with --check, compare) every edition's localized card texts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say whether up to date")
    args = parser.parse_args(argv)
    stale = []
    for path in sorted(EDITIONS.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        check_amounts(data)
        blocks = localized(data)
        if blocks == data.get("localized"):
            continue
        stale.append(path.name)
        if not args.check:
            data["localized"] = blocks
            path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n",
                            encoding="utf-8")
    if args.check and stale:
        print("out of date:", ", ".join(stale), "- run: python tools/card_texts.py")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
