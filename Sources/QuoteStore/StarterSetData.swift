// The starter set: quotes by public-domain authors (and traditional proverbs),
// in English and Korean, so a fresh store answers before any sync has run.
// One quote per line: author|category|lang|text
// English on purpose: the starter set's quotes are data, stored as they are
let starterSetData = """
Mark Twain|humor|en|The secret of getting ahead is getting started.
Mark Twain|truth|en|If you tell the truth, you don't have to remember anything.
Mark Twain|courage|en|Courage is resistance to fear, mastery of fear, not absence of fear.
Mark Twain|humor|en|Never put off till tomorrow what may be done day after tomorrow just as well.
Mark Twain|kindness|en|Kindness is the language which the deaf can hear and the blind can see.
Mark Twain|humor|en|Get your facts first, and then you can distort them as much as you please.
Mark Twain|life|en|The two most important days in your life are the day you are born and the day you find out why.
Mark Twain|humor|en|Always do right. This will gratify some people and astonish the rest.
Mark Twain|humor|en|Clothes make the man. Naked people have little or no influence on society.
Mark Twain|wisdom|en|Whenever you find yourself on the side of the majority, it is time to pause and reflect.
Benjamin Franklin|work|en|Well done is better than well said.
Benjamin Franklin|learning|en|An investment in knowledge pays the best interest.
Benjamin Franklin|time|en|Lost time is never found again.
Benjamin Franklin|wisdom|en|Early to bed and early to rise makes a man healthy, wealthy, and wise.
Benjamin Franklin|work|en|By failing to prepare, you are preparing to fail.
Benjamin Franklin|wisdom|en|Three may keep a secret, if two of them are dead.
Benjamin Franklin|time|en|Do you love life? Then do not squander time, for that is the stuff life is made of.
Oscar Wilde|life|en|Be yourself; everyone else is already taken.
Oscar Wilde|life|en|To live is the rarest thing in the world. Most people exist, that is all.
Oscar Wilde|humor|en|I can resist everything except temptation.
Oscar Wilde|wisdom|en|Experience is simply the name we give our mistakes.
Oscar Wilde|humor|en|Always forgive your enemies; nothing annoys them so much.
Oscar Wilde|life|en|We are all in the gutter, but some of us are looking at the stars.
Abraham Lincoln|work|en|The best way to predict your future is to create it.
Abraham Lincoln|character|en|Nearly all men can stand adversity, but if you want to test a man's character, give him power.
Abraham Lincoln|wisdom|en|Whatever you are, be a good one.
Abraham Lincoln|wisdom|en|I am a slow walker, but I never walk back.
Ralph Waldo Emerson|life|en|What lies behind us and what lies before us are tiny matters compared to what lies within us.
Ralph Waldo Emerson|courage|en|Do not go where the path may lead, go instead where there is no path and leave a trail.
Ralph Waldo Emerson|happiness|en|For every minute you are angry you lose sixty seconds of happiness.
Ralph Waldo Emerson|nature|en|Adopt the pace of nature: her secret is patience.
Ralph Waldo Emerson|friendship|en|The only way to have a friend is to be one.
Ralph Waldo Emerson|life|en|Write it on your heart that every day is the best day in the year.
Henry David Thoreau|life|en|Go confidently in the direction of your dreams. Live the life you have imagined.
Henry David Thoreau|life|en|The mass of men lead lives of quiet desperation.
Henry David Thoreau|wisdom|en|Our life is frittered away by detail. Simplify, simplify.
Henry David Thoreau|nature|en|Heaven is under our feet as well as over our heads.
Henry David Thoreau|work|en|It is not enough to be busy. So are the ants. The question is: What are we busy about?
Seneca|time|en|While we are postponing, life speeds by.
Seneca|fortune|en|Luck is what happens when preparation meets opportunity.
Seneca|courage|en|It is not because things are difficult that we do not dare; it is because we do not dare that they are difficult.
Seneca|wisdom|en|We suffer more often in imagination than in reality.
Seneca|learning|en|While we teach, we learn.
Seneca|life|en|Begin at once to live, and count each separate day as a separate life.
Marcus Aurelius|wisdom|en|The happiness of your life depends upon the quality of your thoughts.
Marcus Aurelius|wisdom|en|Waste no more time arguing about what a good man should be. Be one.
Marcus Aurelius|life|en|Very little is needed to make a happy life; it is all within yourself, in your way of thinking.
Marcus Aurelius|wisdom|en|The best revenge is not to be like your enemy.
Marcus Aurelius|wisdom|en|You have power over your mind, not outside events. Realize this, and you will find strength.
Epictetus|wisdom|en|It's not what happens to you, but how you react to it that matters.
Epictetus|wisdom|en|First say to yourself what you would be; and then do what you have to do.
Epictetus|wisdom|en|Wealth consists not in having great possessions, but in having few wants.
Epictetus|learning|en|Only the educated are free.
Aristotle|wisdom|en|Knowing yourself is the beginning of all wisdom.
Aristotle|work|en|Pleasure in the job puts perfection in the work.
Aristotle|friendship|en|A friend to all is a friend to none.
Aristotle|learning|en|The roots of education are bitter, but the fruit is sweet.
Aristotle|wisdom|en|It is the mark of an educated mind to be able to entertain a thought without accepting it.
Plato|wisdom|en|Wise men speak because they have something to say; fools because they have to say something.
Plato|kindness|en|Be kind, for everyone you meet is fighting a hard battle.
Plato|courage|en|Courage is knowing what not to fear.
Socrates|wisdom|en|The unexamined life is not worth living.
Socrates|wisdom|en|The only true wisdom is in knowing you know nothing.
Confucius|wisdom|en|It does not matter how slowly you go as long as you do not stop.
Confucius|wisdom|en|Real knowledge is to know the extent of one's ignorance.
Confucius|life|en|Our greatest glory is not in never falling, but in rising every time we fall.
Confucius|learning|en|Learning without thought is labor lost; thought without learning is perilous.
Lao Tzu|life|en|A journey of a thousand miles begins with a single step.
Lao Tzu|wisdom|en|Knowing others is intelligence; knowing yourself is true wisdom.
Lao Tzu|nature|en|Nature does not hurry, yet everything is accomplished.
Lao Tzu|wisdom|en|He who knows that enough is enough will always have enough.
William Shakespeare|life|en|All the world's a stage, and all the men and women merely players.
William Shakespeare|truth|en|This above all: to thine own self be true.
William Shakespeare|wisdom|en|The fool doth think he is wise, but the wise man knows himself to be a fool.
William Shakespeare|love|en|The course of true love never did run smooth.
William Shakespeare|wisdom|en|There is nothing either good or bad, but thinking makes it so.
William Shakespeare|courage|en|Cowards die many times before their deaths; the valiant never taste of death but once.
Jane Austen|friendship|en|There is nothing I would not do for those who are really my friends.
Jane Austen|humor|en|I declare after all there is no enjoyment like reading!
Charles Dickens|kindness|en|No one is useless in this world who lightens the burdens of another.
Charles Dickens|love|en|Have a heart that never hardens, and a temper that never tires, and a touch that never hurts.
Leo Tolstoy|life|en|Everyone thinks of changing the world, but no one thinks of changing himself.
Leo Tolstoy|time|en|The two most powerful warriors are patience and time.
Leo Tolstoy|truth|en|If you want to be happy, be.
Voltaire|wisdom|en|Judge a man by his questions rather than by his answers.
Voltaire|wisdom|en|The perfect is the enemy of the good.
Voltaire|work|en|Work keeps at bay three great evils: boredom, vice, and need.
Thomas Edison|work|en|Genius is one percent inspiration and ninety-nine percent perspiration.
Thomas Edison|work|en|I have not failed. I've just found 10,000 ways that won't work.
Thomas Edison|work|en|Opportunity is missed by most people because it is dressed in overalls and looks like work.
Albert Einstein|learning|en|Imagination is more important than knowledge.
Albert Einstein|life|en|Life is like riding a bicycle. To keep your balance you must keep moving.
Albert Einstein|learning|en|The important thing is not to stop questioning.
Albert Einstein|wisdom|en|Try not to become a man of success, but rather try to become a man of value.
Theodore Roosevelt|work|en|Do what you can, with what you have, where you are.
Theodore Roosevelt|happiness|en|Comparison is the thief of joy.
Theodore Roosevelt|courage|en|Believe you can and you're halfway there.
Walt Whitman|life|en|Keep your face always toward the sunshine, and shadows will fall behind you.
Walt Whitman|life|en|Do I contradict myself? Very well then I contradict myself, I am large, I contain multitudes.
Emily Dickinson|hope|en|"Hope" is the thing with feathers that perches in the soul.
Emily Dickinson|life|en|That it will never come again is what makes life so sweet.
John Keats|beauty|en|A thing of beauty is a joy for ever.
Alexander Pope|wisdom|en|To err is human; to forgive, divine.
Alexander Pope|learning|en|A little learning is a dangerous thing.
Samuel Johnson|work|en|Great works are performed not by strength but by perseverance.
Samuel Johnson|friendship|en|A man, sir, should keep his friendship in constant repair.
Francis Bacon|learning|en|Knowledge is power.
Francis Bacon|learning|en|Reading maketh a full man; conference a ready man; and writing an exact man.
Johann Wolfgang von Goethe|work|en|Knowing is not enough; we must apply. Willing is not enough; we must do.
Johann Wolfgang von Goethe|courage|en|Whatever you can do, or dream you can, begin it. Boldness has genius, power and magic in it.
Friedrich Nietzsche|courage|en|That which does not kill us makes us stronger.
Friedrich Nietzsche|life|en|He who has a why to live can bear almost any how.
Friedrich Nietzsche|life|en|Without music, life would be a mistake.
Leonardo da Vinci|wisdom|en|Simplicity is the ultimate sophistication.
Leonardo da Vinci|learning|en|Learning never exhausts the mind.
Isaac Newton|learning|en|If I have seen further it is by standing on the shoulders of giants.
Blaise Pascal|humor|en|I have made this longer than usual because I have not had time to make it shorter.
Blaise Pascal|love|en|The heart has its reasons which reason knows nothing of.
René Descartes|wisdom|en|I think, therefore I am.
Heraclitus|life|en|No man ever steps in the same river twice.
Heraclitus|life|en|The only constant in life is change.
Sun Tzu|strategy|en|The supreme art of war is to subdue the enemy without fighting.
Sun Tzu|strategy|en|In the midst of chaos, there is also opportunity.
Rumi|life|en|What you seek is seeking you.
Rumi|wisdom|en|Yesterday I was clever, so I wanted to change the world. Today I am wise, so I am changing myself.
Kahlil Gibran|love|en|Work is love made visible.
Kahlil Gibran|friendship|en|Friendship is always a sweet responsibility, never an opportunity.
Rabindranath Tagore|life|en|You can't cross the sea merely by standing and staring at the water.
Rabindranath Tagore|hope|en|Faith is the bird that feels the light when the dawn is still dark.
Anton Chekhov|writing|en|Don't tell me the moon is shining; show me the glint of light on broken glass.
Fyodor Dostoevsky|life|en|The mystery of human existence lies not in just staying alive, but in finding something to live for.
Victor Hugo|hope|en|Even the darkest night will end and the sun will rise.
Victor Hugo|courage|en|He who opens a school door, closes a prison.
Robert Louis Stevenson|life|en|Don't judge each day by the harvest you reap but by the seeds that you plant.
G. K. Chesterton|courage|en|Fairy tales are more than true: not because they tell us that dragons exist, but because they tell us that dragons can be beaten.
Henry Wadsworth Longfellow|wisdom|en|Into each life some rain must fall.
William Blake|nature|en|To see a world in a grain of sand and a heaven in a wild flower.
John Milton|wisdom|en|The mind is its own place, and in itself can make a heaven of hell, a hell of heaven.
Cicero|learning|en|A room without books is like a body without a soul.
Cicero|happiness|en|If you have a garden and a library, you have everything you need.
Horace|time|en|Seize the day, put no trust in tomorrow.
Ovid|work|en|Dripping water hollows out stone, not through force but through persistence.
Virgil|courage|en|Fortune favors the bold.
Publilius Syrus|wisdom|en|A rolling stone gathers no moss.
Frederick Douglass|learning|en|Once you learn to read, you will be forever free.
Frederick Douglass|courage|en|If there is no struggle, there is no progress.
Louisa May Alcott|courage|en|I am not afraid of storms, for I am learning how to sail my ship.
Jonathan Swift|wisdom|en|Vision is the art of seeing what is invisible to others.
Miguel de Cervantes|wisdom|en|The road is always better than the inn.
Michel de Montaigne|wisdom|en|He who fears he will suffer, already suffers because of his fear.
Thomas Paine|courage|en|The harder the conflict, the more glorious the triumph.
Thomas Jefferson|honesty|en|Honesty is the first chapter in the book of wisdom.
Edgar Allan Poe|life|en|All that we see or seem is but a dream within a dream.
Samuel Taylor Coleridge|nature|en|Water, water, every where, nor any drop to drink.
Elbert Hubbard|humor|en|Do not take life too seriously. You will never get out of it alive.
Will Rogers|humor|en|Even if you are on the right track, you'll get run over if you just sit there.
Ambrose Bierce|humor|en|Speak when you are angry and you will make the best speech you will ever regret.
Florence Nightingale|work|en|I attribute my success to this: I never gave or took any excuse.
Susan B. Anthony|courage|en|Failure is impossible.
Buddha|wisdom|en|Peace comes from within. Do not seek it without.
Buddha|wisdom|en|Holding on to anger is like grasping a hot coal with the intent of throwing it at someone else; you are the one who gets burned.
공자|학문|ko|배우고 때때로 익히면 또한 기쁘지 아니한가.
공자|우정|ko|벗이 있어 먼 곳에서 찾아오면 또한 즐겁지 아니한가.
공자|지혜|ko|아는 것을 안다 하고 모르는 것을 모른다 하는 것, 이것이 아는 것이다.
공자|학문|ko|옛것을 익히고 새것을 알면 스승이 될 수 있다.
공자|지혜|ko|자기가 하고 싶지 않은 일을 남에게 시키지 말라.
공자|학문|ko|배우기만 하고 생각하지 않으면 얻는 것이 없고, 생각하기만 하고 배우지 않으면 위태롭다.
공자|지혜|ko|지나침은 모자람과 같다.
공자|인생|ko|세 사람이 길을 가면 그중에 반드시 나의 스승이 있다.
공자|지혜|ko|군자는 화합하되 같아지지 않고, 소인은 같아지되 화합하지 않는다.
공자|학문|ko|아는 자는 좋아하는 자만 못하고, 좋아하는 자는 즐기는 자만 못하다.
공자|인생|ko|잘못을 하고도 고치지 않는 것, 이것을 잘못이라 한다.
공자|인생|ko|나는 열다섯에 학문에 뜻을 두었고, 서른에 섰으며, 마흔에 미혹되지 않았다.
맹자|인생|ko|하늘이 장차 큰 임무를 어떤 사람에게 내리려 할 때는 반드시 먼저 그 마음과 뜻을 괴롭게 한다.
맹자|지혜|ko|측은히 여기는 마음은 어짊의 시작이다.
맹자|지혜|ko|스스로를 해치는 자와는 더불어 말할 수 없다.
노자|지혜|ko|최고의 선은 물과 같다. 물은 만물을 이롭게 하면서도 다투지 않는다.
노자|지혜|ko|남을 아는 자는 지혜롭고, 자신을 아는 자는 밝다.
노자|지혜|ko|만족할 줄 아는 자는 부유하다.
노자|인생|ko|천 리 길도 발아래에서 시작된다.
노자|지혜|ko|아는 자는 말하지 않고, 말하는 자는 알지 못한다.
노자|지혜|ko|큰 그릇은 늦게 이루어진다.
장자|지혜|ko|우물 안 개구리에게는 바다를 이야기할 수 없다.
장자|인생|ko|쓸모없는 것의 쓸모를 아무도 알지 못한다.
순자|학문|ko|푸른색은 쪽에서 나왔지만 쪽보다 더 푸르다.
순자|학문|ko|반걸음이 쌓이지 않으면 천 리에 이를 수 없다.
이순신|용기|ko|죽고자 하면 살 것이요, 살고자 하면 죽을 것이다.
이순신|용기|ko|지금 신에게는 아직 열두 척의 배가 남아 있습니다.
이순신|용기|ko|싸움이 급하니 나의 죽음을 알리지 말라.
안중근|학문|ko|하루라도 책을 읽지 않으면 입안에 가시가 돋는다.
안중근|인생|ko|이익을 보거든 의로움을 생각하고, 위태로움을 보거든 목숨을 바쳐라.
김구|인생|ko|나는 우리나라가 세계에서 가장 아름다운 나라가 되기를 원한다.
김구|인생|ko|오직 한없이 가지고 싶은 것은 높은 문화의 힘이다.
김구|인생|ko|눈 덮인 들판을 걸어갈 때 함부로 어지러이 걷지 마라. 오늘 내가 걸어간 발자국은 뒷사람의 이정표가 되리니.
안창호|인생|ko|진리는 반드시 따르는 자가 있고, 정의는 반드시 이루는 날이 있다.
안창호|인생|ko|낙망은 청년의 죽음이요, 청년이 죽으면 민족이 죽는다.
안창호|정직|ko|죽더라도 거짓이 없으라.
정약용|학문|ko|독서는 사람이 해야 할 첫째가는 깨끗한 일이다.
정약용|지혜|ko|부지런함과 검소함, 이 두 글자는 좋은 밭이나 기름진 땅보다 낫다.
이황|학문|ko|배움은 자신을 위한 것이다.
이이|학문|ko|사람이 이 세상에 태어나서 학문이 아니면 사람다운 사람이 될 수 없다.
이이|인생|ko|뜻을 세우지 않고 일을 이루는 자는 없다.
세종대왕|인생|ko|나랏말이 중국과 달라 문자와 서로 통하지 아니하므로 어리석은 백성이 말하고자 하는 바가 있어도 마침내 제 뜻을 펴지 못하는 사람이 많다.
원효|지혜|ko|모든 것은 오직 마음이 지어낸다.
한용운|사랑|ko|님은 갔습니다. 아아, 사랑하는 나의 님은 갔습니다.
한용운|사랑|ko|사랑하는 까닭은 님이 나를 사랑하기 때문이 아니라, 님의 모든 것을 사랑하기 때문이다.
윤동주|인생|ko|죽는 날까지 하늘을 우러러 한 점 부끄럼이 없기를.
윤동주|인생|ko|별을 노래하는 마음으로 모든 죽어가는 것을 사랑해야지.
윤동주|인생|ko|계절이 지나가는 하늘에는 가을로 가득 차 있습니다.
김소월|사랑|ko|나 보기가 역겨워 가실 때에는 말없이 고이 보내 드리우리다.
김소월|자연|ko|산에는 꽃 피네, 꽃이 피네, 갈 봄 여름 없이 꽃이 피네.
김소월|자연|ko|엄마야 누나야 강변 살자, 뜰에는 반짝이는 금모래 빛.
이육사|희망|ko|내 고장 칠월은 청포도가 익어 가는 시절.
이상화|희망|ko|지금은 남의 땅, 빼앗긴 들에도 봄은 오는가?
속담|인생|ko|천 리 길도 한 걸음부터.
속담|말|ko|가는 말이 고와야 오는 말이 곱다.
속담|지혜|ko|낮말은 새가 듣고 밤말은 쥐가 듣는다.
속담|인생|ko|고생 끝에 낙이 온다.
속담|지혜|ko|돌다리도 두들겨 보고 건너라.
속담|지혜|ko|백지장도 맞들면 낫다.
속담|말|ko|말 한마디로 천 냥 빚을 갚는다.
속담|지혜|ko|소 잃고 외양간 고친다.
속담|지혜|ko|세 살 버릇 여든까지 간다.
속담|지혜|ko|원숭이도 나무에서 떨어질 때가 있다.
속담|지혜|ko|하늘이 무너져도 솟아날 구멍이 있다.
속담|학문|ko|벼는 익을수록 고개를 숙인다.
속담|지혜|ko|티끌 모아 태산.
속담|인생|ko|시작이 반이다.
속담|지혜|ko|호랑이도 제 말 하면 온다.
속담|지혜|ko|아니 땐 굴뚝에 연기 나랴.
속담|지혜|ko|열 번 찍어 안 넘어가는 나무 없다.
속담|우정|ko|친구 따라 강남 간다.
속담|지혜|ko|우물을 파도 한 우물을 파라.
속담|지혜|ko|금강산도 식후경.
속담|지혜|ko|빈 수레가 요란하다.
속담|지혜|ko|윗물이 맑아야 아랫물이 맑다.
속담|지혜|ko|등잔 밑이 어둡다.
속담|지혜|ko|믿는 도끼에 발등 찍힌다.
속담|지혜|ko|사공이 많으면 배가 산으로 간다.
속담|지혜|ko|뛰는 놈 위에 나는 놈 있다.
속담|지혜|ko|쥐구멍에도 볕 들 날 있다.
속담|지혜|ko|공든 탑이 무너지랴.
속담|지혜|ko|개구리 올챙이 적 생각 못 한다.
속담|지혜|ko|작은 고추가 더 맵다.
속담|지혜|ko|바늘 도둑이 소도둑 된다.
속담|지혜|ko|구슬이 서 말이라도 꿰어야 보배.
속담|지혜|ko|될성부른 나무는 떡잎부터 알아본다.
속담|지혜|ko|남의 떡이 더 커 보인다.
속담|지혜|ko|발 없는 말이 천 리 간다.
속담|지혜|ko|오르지 못할 나무는 쳐다보지도 마라.
속담|인생|ko|비 온 뒤에 땅이 굳어진다.
속담|지혜|ko|서당 개 삼 년이면 풍월을 읊는다.
속담|지혜|ko|가랑비에 옷 젖는 줄 모른다.
속담|지혜|ko|모로 가도 서울만 가면 된다.
속담|지혜|ko|꿩 먹고 알 먹는다.
속담|지혜|ko|누워서 떡 먹기.
속담|지혜|ko|제 눈에 안경.
속담|지혜|ko|팔은 안으로 굽는다.
속담|지혜|ko|웃는 낯에 침 못 뱉는다.
속담|지혜|ko|급할수록 돌아가라.
속담|지혜|ko|길고 짧은 것은 대어 봐야 안다.
속담|지혜|ko|하나를 보면 열을 안다.
속담|우정|ko|어려울 때 친구가 진짜 친구다.
속담|지혜|ko|배보다 배꼽이 더 크다.
"""
