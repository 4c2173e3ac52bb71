// erfc^-1 by Boost.Math's double-precision rational approximations. Every constant below is
// Boost's (erf_inv.hpp, Boost Software License 1.0); MindSpore's truncated normal uses the same
// ones, so the same arithmetic reproduces its draws. SPDX-License-Identifier: MIT
#include "random/erf_inv.h"

#include <cmath>
#include <span>

namespace gradstep {

namespace {

/// c[0] + c[1] x + ... by Horner's rule, a rounding after each multiply and each add.
double polynomial(std::span<const double> c, double x)
{
    double sum = c.back();
    for (std::size_t i = c.size() - 1; i-- > 0;) {
        sum *= x;
        sum += c[i];
    }
    return sum;
}

double rational(std::span<const double> p, std::span<const double> q, double x)
{
    return polynomial(p, x) / polynomial(q, x);
}

// erf^-1(p) for p <= 0.5: p (p + 10) (Y + R(p)).
double nearZero(double p)
{
    constexpr float y = 0.0891314744949340820313f;
    static constexpr double P[] = {-0.000508781949658280665617, -0.00836874819741736770379,
                                   0.0334806625409744615033,    -0.0126926147662974029034,
                                   -0.0365637971411762664006,   0.0219878681111168899165,
                                   0.00822687874676915743155,   -0.00538772965071242932965};
    static constexpr double Q[] = {1.0,
                                   -0.970005043303290640362,
                                   -1.56574558234175846809,
                                   1.56221558398423026363,
                                   0.662328840472002992063,
                                   -0.71228902341542847553,
                                   -0.0527396382340099713954,
                                   0.0795283687341571680018,
                                   -0.00233393759374190016776,
                                   0.000886216390456424707504};
    const double g = p * (p + 10.0);
    const double r = rational(P, Q, p);
    return g * static_cast<double>(y) + g * r;
}

// erf^-1 for q = 1 - p in [0.25, 0.5): sqrt(-2 ln q) / (Y + R(q - 1/4)).
double middle(double q)
{
    constexpr float y = 2.249481201171875f;
    static constexpr double P[] = {-0.202433508355938759655, 0.105264680699391713268,
                                   8.37050328343119927838,   17.6447298408374015486,
                                   -18.8510648058714251895,  -44.6382324441786960818,
                                   17.445385985570866523,    21.1294655448340526258,
                                   -3.67192254707729348546};
    static constexpr double Q[] = {1.0,
                                   6.24264124854247537712,
                                   3.9713437953343869095,
                                   -28.6608180499800029974,
                                   -20.1432634680485188801,
                                   48.5609213108739935468,
                                   10.8268667355460159008,
                                   -22.6436933413139721736,
                                   1.72114765761200282724};
    const double g = std::sqrt(-2.0 * std::log(q));
    const double r = rational(P, Q, q - 0.25);
    return g / (static_cast<double>(y) + r);
}

/// One band of the tail, in x = sqrt(-ln q): erf^-1 = Y x + R(x - offset) x.
struct TailBand {
    double offset;
    float y;
    std::span<const double> p, q;
};

double tailBand(const TailBand& band, double x)
{
    const double r = rational(band.p, band.q, x - band.offset);
    return static_cast<double>(band.y) * x + r * x;
}

constexpr double kP3[] = {-0.131102781679951906451,   -0.163794047193317060787,
                          0.117030156341995252019,    0.387079738972604337464,
                          0.337785538912035898924,    0.142869534408157156766,
                          0.0290157910005329060432,   0.00214558995388805277169,
                          -0.679465575181126350155e-6, 0.285225331782217055858e-7,
                          -0.681149956853776992068e-9};
constexpr double kQ3[] = {1.0,
                          3.46625407242567245975,
                          5.38168345707006855425,
                          4.77846592945843778382,
                          2.59301921623620271374,
                          0.848854343457902036425,
                          0.152264338295331783612,
                          0.01105924229346489121};
constexpr double kP6[] = {-0.0350353787183177984712,   -0.00222426529213447927281,
                          0.0185573306514231072324,    0.00950804701325919603619,
                          0.00187123492819559223345,   0.000157544617424960554631,
                          0.460469890584317994083e-5,  -0.230404776911882601748e-9,
                          0.266339227425782031962e-11};
constexpr double kQ6[] = {1.0,
                          1.3653349817554063097,
                          0.762059164553623404043,
                          0.220091105764131249824,
                          0.0341589143670947727934,
                          0.00263861676657015992959,
                          0.764675292302794483503e-4};
constexpr double kP18[] = {-0.0167431005076633737133,   -0.00112951438745580278863,
                           0.00105628862152492910091,   0.000209386317487588078668,
                           0.149624783758342370182e-4,  0.449696789927706453732e-6,
                           0.462596163522878599135e-8,  -0.281128735628831791805e-13,
                           0.99055709973310326855e-16};
constexpr double kQ18[] = {1.0,
                           0.591429344886417493481,
                           0.138151865749083321638,
                           0.0160746087093676504695,
                           0.000964011807005165528527,
                           0.275335474764726041141e-4,
                           0.282243172016108031869e-6};
constexpr double kP44[] = {-0.0024978212791898131227,   -0.779190719229053954292e-5,
                           0.254723037413027451751e-4,   0.162397777342510920873e-5,
                           0.396341011304801168516e-7,   0.411632831190944208473e-9,
                           0.145596286718675035587e-11,  -0.116765012397184275695e-17};
constexpr double kQ44[] = {1.0,
                           0.207123112214422517181,
                           0.0169410838120975906478,
                           0.000690538265622684595676,
                           0.145007359818232637924e-4,
                           0.144437756628144157666e-6,
                           0.509761276599778486139e-9};
constexpr double kPFar[] = {-0.000539042911019078575891, -0.28398759004727721098e-6,
                            0.899465114892291446442e-6,  0.229345859265920864296e-7,
                            0.225561444863500149219e-9,  0.947846627503022684216e-12,
                            0.135880130108924861008e-14, -0.348890393399948882918e-21};
constexpr double kQFar[] = {1.0,
                            0.0845746234001899436914,
                            0.00282092984726264681981,
                            0.468292921940894236786e-4,
                            0.399968812193862100054e-6,
                            0.161809290887904476097e-8,
                            0.231558608310259605225e-11};

// erf^-1 for q = 1 - p below 0.25, by bands of x = sqrt(-ln q) split at 3, 6, 18 and 44.
double tail(double q)
{
    const double x = std::sqrt(-std::log(q));
    if (x < 3.0)
        return tailBand({1.125, 0.807220458984375f, kP3, kQ3}, x);
    if (x < 6.0)
        return tailBand({3.0, 0.93995571136474609375f, kP6, kQ6}, x);
    if (x < 18.0)
        return tailBand({6.0, 0.98362827301025390625f, kP18, kQ18}, x);
    if (x < 44.0)
        return tailBand({18.0, 0.99714565277099609375f, kP44, kQ44}, x);
    return tailBand({44.0, 0.99941349029541015625f, kPFar, kQFar}, x);
}

/// erf^-1(p) given q = 1 - p (both in [0, 1]); q is passed so the tail keeps its precision.
double erfInv(double p, double q)
{
    if (p <= 0.5)
        return nearZero(p);
    if (q >= 0.25)
        return middle(q);
    return tail(q);
}

} // namespace

double erfcInvClamped(double z)
{
    if (z <= 0.0)
        z = std::nextafter(0.0f, 2.0f);
    else if (z >= 2.0)
        z = std::nextafter(2.0f, 0.0f);
    // erfc^-1(z) = erf^-1(1 - z), and erfc^-1(z) = -erfc^-1(2 - z) above 1.
    if (z > 1.0) {
        const double q = 2.0 - z;
        return -erfInv(1.0 - q, q);
    }
    return erfInv(1.0 - z, z);
}

} // namespace gradstep
